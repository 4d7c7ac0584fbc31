;;; lists-test.el --- hotlines.el's lists, jumps and flame graph, against the real server -*- lexical-binding: t -*-

;;; Commentary:

;; java-shop with profiles/ap-cpu.jfr: `hotlines-hot-methods' and
;; `hotlines-hot-lines' list the server's entries in its order and RET
;; visits them, `hotlines-callers' shows the server's callers as xrefs,
;; `hotlines-imenu' jumps to a hot method, `hotlines-flame-graph' opens
;; the loopback page and a frame posted to it (what a double-click does)
;; opens its source here through window/showDocument, and the package
;; keeps its heat beside an eglot-managed server.  Run by
;; tests/emacs.cmake.

;;; Code:

(require 'hotlines-test-lib)
(require 'url)

(hotlines-test-setup '(:profiles ("profiles/ap-cpu.jfr")))

(defun hotlines-test-pct (weight total)
  "WEIGHT's share of TOTAL formatted as the lists do."
  (format "%.1f%%" (/ (* 100.0 (plist-get weight :value)) (plist-get total :value))))

(defun hotlines-test-entries (buf)
  "The tabulated-list entries of BUF as (ID . COLUMNS-LIST)."
  (with-current-buffer buf
    (mapcar (lambda (e) (cons (car e) (append (cadr e) nil))) tabulated-list-entries)))

(ert-deftest hotlines-lists-hot-methods ()
  (let* ((buf (hotlines-test-open hotlines-test-pricing))
         (r (hotlines-test-await 30 (lambda (done) (hotlines-hot-methods done))))
         (list-buf (nth 1 r))
         (hot (hotlines-test-server buf 'hotlines/hotMethods '(:limit 50)))
         (total (plist-get hot :total))
         (want (mapcar (lambda (m)
                         (let* ((f (hotlines-test-server buf 'hotlines/resolveFrame
                                                         (list :function (plist-get m :name))))
                                (loc (and (equal (plist-get f :status) "resolved")
                                          (plist-get f :location)))
                                (file (and loc (hotlines--file (plist-get loc :uri))))
                                (line (and loc (1+ (plist-get (plist-get (plist-get loc :range) :start)
                                                              :line)))))
                           (list (cons file line)
                                 (hotlines-test-pct (plist-get m :self) total)
                                 (hotlines-test-pct (plist-get m :total) total)
                                 (plist-get m :name)
                                 (if file (format "%s:%d" (file-name-nondirectory file) line) "-"))))
                       (append (plist-get hot :methods) nil))))
    (should (null (car r)))
    (should (equal (buffer-name list-buf) "*hotlines hot methods (cpu)*"))
    (should (> (length want) 3))
    (should (equal (hotlines-test-entries list-buf) want))
    ;; Frames without workspace source are listed without one (libmSin first, 47.7%);
    ;; the hottest method with source is Pricing.cached at line 32.
    (should (equal (cdr (car want)) '("47.7%" "48.1%" "libmSin" "-")))
    (should (equal (cdr (cl-find-if #'caar want))
                   '("7.2%" "51.3%" "org.acme.shop.Pricing.cached" "Pricing.java:32")))
    ;; RET on the entry of Pricing.discount visits Pricing.java at its line.
    (with-current-buffer list-buf
      (goto-char (point-min))
      (should (search-forward "org.acme.shop.Pricing.discount " nil t))
      (let ((id (tabulated-list-get-id)))
        (should (equal (car id) hotlines-test-pricing))
        (should (equal (key-binding (kbd "RET")) #'hotlines-list-visit))
        (hotlines-list-visit)
        (should (equal (buffer-file-name) (car id)))
        (should (= (line-number-at-pos) (cdr id)))
        (should hotlines-mode)))))

(ert-deftest hotlines-lists-hot-lines ()
  (let* ((buf (hotlines-test-open hotlines-test-pricing))
         (r (hotlines-test-await 30 (lambda (done) (hotlines-hot-lines done))))
         (entries (hotlines-test-entries (nth 1 r)))
         (main (expand-file-name "src/main/java/org/acme/shop/Main.java" hotlines-test-java-shop))
         rows)
    (dolist (f (list hotlines-test-pricing main))
      (let ((a (hotlines-test-server buf 'hotlines/fileAnnotations
                                     (list :textDocument (list :uri (hotlines--uri f))))))
        (dolist (l (append (plist-get a :lines) nil))
          (when (>= (/ (* 100.0 (plist-get (plist-get l :self) :value))
                       (plist-get (plist-get a :total) :value))
                    1)
            (push (list (plist-get (plist-get l :self) :value) f (plist-get l :line)) rows)))))
    (setq rows (sort rows (lambda (a b)
                            (cond ((/= (car a) (car b)) (> (car a) (car b)))
                                  ((not (equal (nth 1 a) (nth 1 b))) (string< (nth 1 a) (nth 1 b)))
                                  (t (< (nth 2 a) (nth 2 b)))))))
    (should (>= (length rows) 2))
    (should (equal (mapcar #'car entries) (mapcar (lambda (r) (cons (nth 1 r) (nth 2 r))) rows)))
    ;; Line 32 inlines discount's loop: 7.2% self, 39.6% with its callees.
    (should (equal (cdr (car entries))
                   '("7.2%" "39.6%" "Pricing.java:32" "org.acme.shop.Pricing.cached")))))

(ert-deftest hotlines-lists-callers-as-xrefs ()
  (let* ((buf (hotlines-test-open hotlines-test-pricing))
         (tree (hotlines-test-server buf 'hotlines/callers
                                     (list :uri (with-current-buffer buf (hotlines--doc-uri))
                                           :line 15 :lines t :maxDepth 2)))
         (depth1 (cl-remove-if-not (lambda (n) (= (plist-get n :depth) 1))
                                   (append (plist-get tree :nodes) nil)))
         r)
    (with-current-buffer buf
      (goto-char (point-min))
      (forward-line 14)
      (setq r (hotlines-test-await 20 (lambda (done) (hotlines--calls 'hotlines/callers done)))))
    (should (null (car r)))
    (should (equal (nth 1 r) "callers of Pricing.java:15 (cpu)"))
    (should (equal (mapcar #'xref-item-summary (nth 2 r))
                   (mapcar (lambda (n) (format "%s %s:%d" (hotlines-test-pct (plist-get n :total)
                                                                             (plist-get tree :total))
                                               (plist-get n :name) (plist-get n :line)))
                           depth1)))
    (should (equal (xref-item-summary (car (nth 2 r))) "21.9% org.acme.shop.Main.main:23"))
    (let ((loc (xref-item-location (car (nth 2 r)))))
      (should (string-suffix-p "/Main.java" (xref-file-location-file loc)))
      (should (= (xref-file-location-line loc) 23)))
    ;; The command shows them in an xref buffer.
    (with-current-buffer buf
      (goto-char (point-min))
      (forward-line 14)
      (hotlines-callers))
    (should (hotlines-test-wait 20 (lambda () (get-buffer "*xref*"))))
    (with-current-buffer "*xref*"
      (should (string-match-p "21.9% org.acme.shop.Main.main:23" (buffer-string))))
    ;; On a line the profile does not know (17: `return acc;'), the method around it
    ;; is the anchor.
    (with-current-buffer buf
      (should-not (cl-find 17 (plist-get hotlines--result :lines)
                           :key (lambda (l) (plist-get l :line))))
      (goto-char (point-min))
      (forward-line 16)
      (setq r (hotlines-test-await 20 (lambda (done) (hotlines--calls 'hotlines/callees done)))))
    (should (equal (nth 1 r) "callees of org.acme.shop.Pricing.discount (cpu)"))))

(ert-deftest hotlines-lists-imenu-jumps-to-a-hot-method ()
  (let* ((buf (hotlines-test-open hotlines-test-pricing))
         (cands (with-current-buffer buf (hotlines--hot-method-candidates)))
         offered)
    (should (string-match-p "\\`7\\.2% +org\\.acme\\.shop\\.Pricing\\.cached\\'" (car (car cands))))
    (let* ((main (car (last cands)))
           (frame (hotlines-test-server buf 'hotlines/resolveFrame
                                        (list :function (car (last (split-string (car main)))))))
           (loc (plist-get frame :location)))
      (should (> (length cands) 2))
      (should (equal (cdr main)
                     (list (hotlines--file (plist-get loc :uri))
                           (1+ (plist-get (plist-get (plist-get loc :range) :start) :line)))))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt table &rest _)
                   (setq offered (all-completions "" table))
                   (car main))))
        (switch-to-buffer buf)
        (hotlines-imenu))
      (should (equal offered (mapcar #'car cands)))
      (should (equal (buffer-file-name) (nth 1 main)))
      (should (= (line-number-at-pos) (nth 2 main))))))

(defun hotlines-test-post (url body)
  "POST the JSON BODY to URL; return the answer's body once it arrives."
  (let ((url-request-method "POST")
        (url-request-extra-headers '(("Content-Type" . "application/json")))
        (url-request-data (encode-coding-string (json-serialize body) 'utf-8))
        answer)
    (url-retrieve url (lambda (_status)
                        (goto-char (point-min))
                        (re-search-forward "\r?\n\r?\n" nil t)
                        (setq answer (buffer-substring (point) (point-max))))
                  nil t t)
    (hotlines-test-wait 20 (lambda () answer))))

(ert-deftest hotlines-lists-flame-graph-opens-sources ()
  (let* ((buf (hotlines-test-open hotlines-test-pricing))
         (opened nil)
         (browse-url-browser-function (lambda (url &rest _) (setq opened url)))
         (r (hotlines-test-await 20 (lambda (done) (with-current-buffer buf
                                                     (hotlines-flame-graph done))))))
    ;; The server asked (window/showDocument, external) to open the page.
    (should (null (car r)))
    (should (hotlines-test-wait 10 (lambda () opened)))
    (should (equal opened (nth 1 r)))
    (should (string-match-p "\\`http://127\\.0\\.0\\.1:[0-9]+/[0-9a-f]+/p[0-9]+/\\'" opened))
    ;; As the page does on a double-click: fetch its document, post a frame.
    (let* ((frame (hotlines-test-server buf 'hotlines/resolveFrame
                                        '(:function "org.acme.shop.Main.main")))
           (doc (with-current-buffer (url-retrieve-synchronously (concat opened "document.json") t t 20)
                  (goto-char (point-min))
                  (re-search-forward "\r?\n\r?\n")
                  (json-parse-buffer :object-type 'plist)))
           (fn (cl-position "org.acme.shop.Main.main" (plist-get doc :functions)
                            :key (lambda (f) (plist-get f :name)) :test #'equal))
           (main (hotlines--file (plist-get (plist-get frame :location) :uri))))
      (should fn)
      (switch-to-buffer buf)
      (let ((answer (hotlines-test-post (concat opened "open")
                                        (list :frame (list :fn fn :line (plist-get frame :line))))))
        (should (string-match-p (format "opened Main.java:%d" (plist-get frame :line)) answer)))
      (should (hotlines-test-wait 10 (lambda () (equal (buffer-file-name (window-buffer)) main))))
      (with-current-buffer (window-buffer)
        (should (= (line-number-at-pos (window-point)) (plist-get frame :line)))))))

(ert-deftest hotlines-lists-coexists-with-eglot ()
  ;; Eglot holds the buffer's language server (here a second `hotlines serve' stands in
  ;; for jdtls); hotlines-mode keeps its own connection and draws its heat beside it.
  ;; Debian's elpa-eglot, which -Q does not activate.
  (let ((package-directory-list '("/usr/share/emacs/site-lisp/elpa")))
    (package-initialize))
  (unless (require 'eglot nil t) (ert-skip "eglot is not installed (elpa-eglot)"))
  (let* ((buf (find-file-noselect hotlines-test-pricing))
         (eglot-server-programs `((java-mode ,hotlines-test-binary "serve")))
         (eglot-sync-connect t))
    (with-current-buffer buf
      (java-mode)
      (apply #'eglot (eglot--guess-contact))
      (should (hotlines-test-wait 30 (lambda () (eglot-current-server))))
      (should (hotlines-test-wait 30 (lambda () (eglot-managed-p))))
      (hotlines-mode 1)
      (should (hotlines-test-wait 30 (lambda () hotlines--result)))
      (should-not (eq (jsonrpc--process (eglot-current-server))
                      (jsonrpc--process hotlines--connection)))
      (should (equal (hotlines-test-text-at buf 32) "7.2% cpu"))
      ;; Both connections get the edits: eglot's server and ours map line 15 to 18.
      (let ((before hotlines--asked))
        (goto-char (point-min))
        (forward-line 14)
        (insert "// a\n// b\n// c\n")
        (should (hotlines-test-redrawn buf before)))
      (should (equal (hotlines-test-text-at buf 18) "4.2% cpu"))
      (eglot--signal-textDocument/didChange)
      (jsonrpc-request (eglot-current-server) :hotlines/loadProfile
                       (list :path (expand-file-name "profiles/ap-cpu.jfr" hotlines-test-java-shop)))
      (let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                    (list :textDocument (list :uri (hotlines--doc-uri))
                                          :position (list :line 17 :character 8)))))
        (should (string-match-p "cpu" (format "%s" (plist-get (plist-get hover :contents) :value)))))
      (hotlines-mode -1)
      (should (eglot-managed-p))
      (should-not (hotlines-test-marks buf))
      (eglot-shutdown (eglot-current-server))
      (set-buffer-modified-p nil))
    (kill-buffer buf)))

(provide 'lists-test)
;;; lists-test.el ends here
