;;; heat-test.el --- The heat hotlines.el draws, against the real server -*- lexical-binding: t -*-

;;; Commentary:

;; Pricing.java of java-shop with profiles/ap-cpu.jfr: the overlay texts
;; equal the server's hotlines/fileAnnotations (shares computed here from
;; its weights), the margin glyphs its heat levels; the heat follows
;; `hotlines-select-threads', `-window', `-event', `-baseline',
;; `hotlines-load-profile' and unsaved edits.  Run by tests/emacs.cmake.

;;; Code:

(require 'hotlines-test-lib)

(hotlines-test-setup '(:profiles ("profiles/ap-cpu.jfr")))

(defvar hotlines-test-buf nil
  "Pricing.java, opened once for all the tests of this file.")

(defun hotlines-test-pricing ()
  "The buffer of Pricing.java in `hotlines-mode', with its heat."
  (unless (buffer-live-p hotlines-test-buf)
    (setq hotlines-test-buf (hotlines-test-open hotlines-test-pricing)))
  hotlines-test-buf)

(ert-deftest hotlines-heat-1-equals-file-annotations ()
  (let* ((buf (hotlines-test-pricing))
         (ann (hotlines-test-should-match-server buf))
         (marks (hotlines-test-marks buf)))
    ;; All threads: the JIT inlined discount into cached, so line 32 is the hottest.
    (should (equal (assoc 32 marks) '(32 "7.2% cpu" "█")))
    (should (equal (assoc 15 marks) '(15 "4.2% cpu" "▄")))
    (should (cl-find-if (lambda (m) (string-prefix-p "↳ " (nth 1 m))) marks))
    ;; The glyph is the server's heat level: ceil(5 * heat).
    (dolist (l (append (plist-get ann :lines) nil))
      (let ((m (assoc (plist-get l :line) marks)))
        (when (and m (nth 2 m))
          (should (equal (nth 2 m) (aref hotlines-margin-glyphs
                                         (1- (max 1 (ceiling (* 5 (plist-get l :heat)))))))))))
    ;; On a graphic display the level is a fringe bitmap in the level's face.
    (let ((hotlines-indicator 'fringe))
      (with-current-buffer buf
        (hotlines--render hotlines--result)
        (let ((ov (cl-find-if (lambda (o) (= (line-number-at-pos (overlay-start o)) 32))
                              hotlines--overlays)))
          (should (equal (get-text-property 0 'display (overlay-get ov 'before-string))
                         '(left-fringe hotlines-fringe-5 hotlines-heat-5))))))
    (with-current-buffer buf (hotlines--render hotlines--result))
    ;; Lines passing time to callees have no glyph; the margin is one column.
    (should-not (nth 2 (cl-find-if (lambda (m) (string-prefix-p "↳ " (nth 1 m))) marks)))
    (with-current-buffer buf (should (equal left-margin-width 1)))))

(ert-deftest hotlines-heat-2-follows-threads-and-window ()
  (let ((buf (hotlines-test-pricing)))
    (unwind-protect
        (progn
          (should (equal (hotlines-test-await 20 (lambda (done)
                                                   (hotlines-select-threads '("DestroyJavaVM") done)))
                         '(nil)))
          (hotlines-test-should-match-server buf)
          ;; The main thread only: line 15 is the hottest with 13.4%.
          (should (equal (hotlines-test-text-at buf 15) "13.4% cpu"))
          (should (equal (hotlines-test-await 20 (lambda (done) (hotlines-select-threads nil done)))
                         '(nil)))
          (should (equal (hotlines-test-text-at buf 15) "4.2% cpu"))
          (hotlines-test-await 20 (lambda (done) (hotlines-select-window "1s" "2s" done)))
          (let ((ann (hotlines-test-should-match-server buf)))
            (should (< (plist-get (plist-get ann :total) :count) 2530))
            (should-not (equal (hotlines-test-text-at buf 32) "7.2% cpu")))
          ;; A bad time is the server's error, passed on.
          (let ((err (car (hotlines-test-await 20 (lambda (done)
                                                    (hotlines-select-window "soon" nil done))))))
            (should (equal (plist-get err :code) -32602))))
      (hotlines-test-await 20 (lambda (done) (hotlines-select-threads nil done)))
      (hotlines-test-await 20 (lambda (done) (hotlines-select-window "" "" done))))
    (should (equal (hotlines-test-text-at buf 32) "7.2% cpu"))))

(ert-deftest hotlines-heat-3-follows-edits ()
  (let ((buf (hotlines-test-pricing)))
    (with-current-buffer buf
      (let ((before hotlines--asked))
        (goto-char (point-min))
        (forward-line 14)
        (insert "// a\n// b\n// c\n")
        (should (hotlines-test-redrawn buf before)))
      ;; Three lines above line 15 move its heat to 18; the server maps it back.
      (should (equal (hotlines-test-text-at buf 18) "4.2% cpu"))
      (should (equal (hotlines-test-text-at buf 35) "7.2% cpu"))
      (should-not (hotlines-test-text-at buf 15))
      (let ((l18 (cl-find 18 (plist-get hotlines--result :lines)
                          :key (lambda (l) (plist-get l :line)))))
        (should (equal (plist-get l18 :profiledLine) 15))
        (should (eq (plist-get l18 :stale) :json-false)))
      (hotlines-test-should-match-server buf)
      ;; Two edits far apart sent together (as incremental changes): a line above
      ;; line 18 and one below everything profiled; the heat moves by one line.
      (let ((before hotlines--asked))
        (goto-char (point-min))
        (insert "// top\n")
        (goto-char (point-max))
        (insert "// bottom\n")
        (should (hotlines-test-redrawn buf before)))
      (should (equal (hotlines-test-text-at buf 19) "4.2% cpu"))
      (let ((l19 (cl-find 19 (plist-get hotlines--result :lines)
                          :key (lambda (l) (plist-get l :line)))))
        (should (equal (plist-get l19 :profiledLine) 15))
        (should (eq (plist-get l19 :stale) :json-false)))
      (let ((before hotlines--asked))
        (goto-char (point-min))
        (delete-region (point) (line-beginning-position 2))
        (should (hotlines-test-redrawn buf before)))
      (should (equal (hotlines-test-text-at buf 18) "4.2% cpu"))
      ;; Editing the hot line itself keeps its numbers, marked stale; a non-ASCII
      ;; character before it checks the UTF-16 columns.
      (let ((before hotlines--asked))
        (goto-char (point-min))
        (forward-line 17)
        (search-forward "acc +=")
        (insert " 0.0 + ")
        (end-of-line)
        (insert " // ünïcödé €")
        (should (hotlines-test-redrawn buf before)))
      (let ((l18 (cl-find 18 (plist-get hotlines--result :lines)
                          :key (lambda (l) (plist-get l :line)))))
        (should (eq (plist-get l18 :stale) t)))
      (should (equal (hotlines-test-text-at buf 18) "4.2% cpu"))
      (let ((server-text (hotlines-test-server buf 'textDocument/hover
                                               (list :textDocument (list :uri (hotlines--doc-uri))
                                                     :position (list :line 17 :character 1)))))
        (should (string-match-p "edited since it was profiled"
                                (format "%s" (plist-get (plist-get server-text :contents) :value)))))
      ;; Undo everything: the heat is back where the profile put it.
      (let ((before hotlines--asked))
        (revert-buffer t t)
        (unless hotlines-mode (hotlines-mode 1))
        (should (hotlines-test-wait 20 (lambda () (and hotlines--result (> hotlines--drawn before)))))
        (should (equal (hotlines-test-text-at buf 15) "4.2% cpu"))
        (hotlines-test-should-match-server buf)))))

(ert-deftest hotlines-heat-4-load-event-baseline ()
  (let* ((buf (hotlines-test-pricing))
         (default-directory hotlines-test-java-shop))
    (unwind-protect
        (progn
          ;; The profile reader offers profiles and folders, not the .jfc settings.
          (should (hotlines--profile-file-p "profiles/ap-cpu.jfr.gz"))
          (should (hotlines--profile-file-p "profiles/"))
          (should-not (hotlines--profile-file-p "profiles/jdk-alloc-lock.jfc"))
          (let ((r (hotlines-test-await 30 (lambda (done)
                                             (hotlines-load-profile "profiles/ap-multi.jfr" done)))))
            (should (null (car r)))
            (should (equal (plist-get (cadr r) :format) "jfr")))
          (let ((ann (hotlines-test-should-match-server buf)))
            (should (equal (plist-get (plist-get ann :total) :count) 672)))
          (should (equal (with-current-buffer buf (hotlines--event-names))
                         (mapcar (lambda (e) (plist-get e :name))
                                 (plist-get (hotlines-test-server buf 'hotlines/events) :events))))
          (should (= (length (with-current-buffer buf (hotlines--event-names))) 3))
          (hotlines-test-await 20 (lambda (done) (hotlines-select-event "alloc" done)))
          (hotlines-test-should-match-server buf)
          ;; Line 23 allocates through the JDK's string building: all its weight is total.
          (should (string-match-p "\\`↳ .* alloc total\\'" (hotlines-test-text-at buf 23)))
          (hotlines-test-await 20 (lambda (done) (hotlines-select-event "cpu" done)))
          ;; The baseline ap-cpu.jfr: ap-multi stays shown, the marks show the change.
          (hotlines-test-await 30 (lambda (done)
                                    (hotlines-select-baseline "profiles/ap-cpu.jfr" done)))
          (let* ((ann (hotlines-test-annotations buf))
                 (l15 (cl-find 15 (plist-get ann :lines) :key (lambda (l) (plist-get l :line))))
                 (m15 (with-current-buffer buf
                        (cl-find 15 (hotlines--marks hotlines--result)
                                 :key (lambda (m) (plist-get m :line))))))
            (should (equal (plist-get (plist-get ann :total) :count) 672))
            (should (equal (plist-get (plist-get (plist-get l15 :baseline) :self) :count) 105))
            (should (equal (format "%s%.1f%% cpu vs baseline"
                                   (if (> (plist-get l15 :delta) 0) "+" "")
                                   (plist-get l15 :delta))
                           "+0.5% cpu vs baseline"))
            (should (equal (hotlines-test-text-at buf 15) "+0.5% cpu vs baseline"))
            (should (eq (plist-get m15 :face) 'hotlines-slower))
            (should (cl-some (lambda (m) (eq (plist-get m :face) 'hotlines-faster))
                             (with-current-buffer buf (hotlines--marks hotlines--result)))))
          (hotlines-test-await 20 (lambda (done) (hotlines-select-baseline "" done)))
          (hotlines-test-should-match-server buf))
      (hotlines-test-await 30 (lambda (done) (hotlines-load-profile "profiles/ap-cpu.jfr" done))))
    (should (equal (hotlines-test-text-at buf 32) "7.2% cpu"))))

(ert-deftest hotlines-heat-0-positions-count-utf-16 ()
  ;; LSP columns are UTF-16 code units: é and € are one each, 𝄞 (U+1D11E) two.
  (with-temp-buffer
    (insert "ab\né€𝄞x")
    (should (equal (hotlines--position (point-max)) '(:line 1 :character 5)))
    (should (equal (hotlines--position 3) '(:line 0 :character 2)))))

(ert-deftest hotlines-heat-5-bad-profile-is-reported ()
  (let* ((buf (hotlines-test-pricing))
         (bad (make-temp-file "hotlines-bad" nil ".collapsed" "not a stack\n")))
    (unwind-protect
        (let ((err (car (hotlines-test-await 20 (lambda (done) (hotlines-load-profile bad done))))))
          (should (equal (plist-get err :code) -32803))
          (should (string-match-p "line 1" (plist-get err :message)))
          (should (equal (hotlines-test-text-at buf 32) "7.2% cpu")))
      (delete-file bad))))

(ert-deftest hotlines-heat-6-redrawn-when-the-profile-file-is-rewritten ()
  (let* ((buf (hotlines-test-pricing))
         (dir (make-temp-file "hotlines-reload" t))
         (copy (expand-file-name "cpu.jfr" dir))
         (profiles (expand-file-name "profiles" hotlines-test-java-shop)))
    (unwind-protect
        (progn
          (copy-file (expand-file-name "ap-cpu.jfr" profiles) copy)
          (hotlines-test-await 30 (lambda (done) (hotlines-load-profile copy done)))
          (should (equal (hotlines-test-text-at buf 32) "7.2% cpu"))
          ;; Rewritten behind Emacs: the server reloads it (profileChanged) and the heat
          ;; is redrawn without a command.
          (copy-file (expand-file-name "ap-multi.jfr" profiles) (concat copy ".part"))
          (rename-file (concat copy ".part") copy t)
          (should (hotlines-test-wait 20 (lambda () (equal (hotlines-test-text-at buf 32) "8.8% cpu"))))
          (hotlines-test-should-match-server buf))
      (hotlines-test-await 30 (lambda (done)
                                (hotlines-load-profile (expand-file-name "ap-cpu.jfr" profiles) done)))
      (delete-directory dir t))))

(ert-deftest hotlines-heat-7-setup-turns-on-the-mode ()
  (let ((main (expand-file-name "src/main/java/org/acme/shop/Main.java" hotlines-test-java-shop)))
    (unwind-protect
        (progn
          (hotlines-setup)
          (with-current-buffer (find-file-noselect main)
            (should (derived-mode-p 'java-mode))
            (should hotlines-mode)
            (should (hotlines-test-wait 20 (lambda () hotlines--result)))
            (should (eq hotlines--connection
                        (buffer-local-value 'hotlines--connection (hotlines-test-pricing))))
            (kill-buffer)))
      (remove-hook 'after-change-major-mode-hook #'hotlines--maybe-enable))))

(ert-deftest hotlines-heat-8-a-server-that-fails-is-reported ()
  (let ((file (make-temp-file "hotlines-lonely" nil ".java" "class A {}\n"))
        (messages nil))
    (cl-letf (((symbol-function 'message)
               (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
      (unwind-protect
          (with-current-buffer (find-file-noselect file)
            ;; Not executable: said at once, the mode stays off.
            (let ((hotlines-server-command '("/nonexistent/hotlines" "serve")))
              (hotlines-mode 1)
              (should-not hotlines-mode)
              (should (string-match-p "/nonexistent/hotlines is not executable" (car messages))))
            ;; A server that exits before answering initialize.  It reads the request
            ;; first: `emacs --batch' dies of SIGPIPE writing to a process already gone
            ;; (an interactive Emacs ignores it).
            (let ((hotlines-server-command '("sh" "-c" "head -c 1 >/dev/null; exit 3")))
              (hotlines-mode 1)
              (should-not hotlines-mode)
              (should (cl-some (lambda (m) (string-match-p "did not initialize" m)) messages))
              (should-not (gethash (hotlines--find-root file) hotlines--connections)))
            (set-buffer-modified-p nil)
            (kill-buffer))
        (delete-file file)))))

(provide 'heat-test)
;;; heat-test.el ends here
