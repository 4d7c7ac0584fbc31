;;; screen-test.el --- The heat on a real terminal screen: emacs -nw in tmux -*- lexical-binding: t -*-

;;; Commentary:

;; No screenshot: `emacs -nw' with hotlines.el runs inside tmux
;; (lib/screen-editor.el), `tmux capture-pane' reads the screen, and
;; each profiled line of Pricing.java must show the margin glyph of its
;; heat level (from the server's `heat') and its share at the end.  Uses
;; a private tmux socket and kills only its own tmux server.  Run by
;; tests/emacs.cmake with HOTLINES_EMACS and HOTLINES_TMUX.

;;; Code:

(require 'hotlines-test-lib)

(defvar hotlines-test-dir (file-name-directory (or load-file-name buffer-file-name))
  "The folder of this file.")

(defun hotlines-test-tmux (socket &rest args)
  "Run tmux with ARGS on the private SOCKET; return its output."
  (with-temp-buffer
    (apply #'call-process (or (getenv "HOTLINES_TMUX") "tmux") nil t nil
           "-L" socket "-f" "/dev/null" args)
    (buffer-string)))

(ert-deftest hotlines-screen-shows-heat-in-the-margin ()
  (let* ((process-environment (cons "TMUX" process-environment)) ; unset: not nested
         (socket (format "hotlines-emacs-%d" (emacs-pid)))
         (ready (make-temp-name (expand-file-name "hotlines-screen" temporary-file-directory)))
         (inner (mapconcat
                 #'shell-quote-argument
                 (list "env" "TERM=xterm-256color"
                       (concat "HOTLINES_SCREEN_READY=" ready)
                       (concat "HOTLINES_BINARY=" hotlines-test-binary)
                       (concat "HOTLINES_FIXTURES=" hotlines-test-fixtures)
                       (or (getenv "HOTLINES_EMACS") "emacs") "-nw" "-Q"
                       "-L" (expand-file-name "../../editors/emacs" hotlines-test-dir)
                       "-L" (expand-file-name "lib" hotlines-test-dir)
                       "-l" "screen-editor")
                 " "))
         screen ann)
    (unwind-protect
        (progn
          (hotlines-test-tmux socket "new-session" "-d" "-x" "120" "-y" "60" inner)
          (let ((ok (hotlines-test-wait 30 (lambda () (file-exists-p ready)))))
            (unless ok (message "screen:\n%s" (hotlines-test-tmux socket "capture-pane" "-p")))
            (should ok))
          (setq screen (hotlines-test-tmux socket "capture-pane" "-p"))
          (setq ann (with-temp-buffer
                      (insert-file-contents ready)
                      (json-parse-buffer :object-type 'plist))))
      (hotlines-test-tmux socket "kill-server")
      (when (file-exists-p ready) (delete-file ready)))
    ;; Each row: the margin (1 cell), the line number, the text.
    (let ((rows nil)
          (count (with-temp-buffer (insert-file-contents hotlines-test-pricing)
                                   (count-lines (point-min) (point-max))))
          (total (plist-get (plist-get ann :total) :value))
          (checked 0))
      (dolist (row (split-string screen "\n"))
        (when (string-match "\\`\\(.\\) *\\([0-9]+\\)\\( \\|\\'\\)" row)
          (push (list (string-to-number (match-string 2 row)) (match-string 1 row) row) rows)))
      (should (= (length rows) count))
      (dolist (l (append (plist-get ann :lines) nil))
        (let ((self (/ (* 100.0 (plist-get (plist-get l :self) :value)) total))
              (row (assoc (plist-get l :line) rows)))
          (when (>= self 1)
            (setq checked (1+ checked))
            (should (equal (list (plist-get l :line) (nth 1 row)
                                 (string-match-p (regexp-quote (format "%.1f%% cpu" self)) (nth 2 row)))
                           (list (plist-get l :line)
                                 (aref hotlines-margin-glyphs
                                       (1- (max 1 (ceiling (* 5 (plist-get l :heat))))))
                                 (string-match-p (regexp-quote (format "%.1f%% cpu" self))
                                                 (nth 2 row))))))))
      (dolist (row rows)
        (unless (cl-find-if (lambda (l) (and (= (plist-get l :line) (car row))
                                             (>= (/ (* 100.0 (plist-get (plist-get l :self) :value))
                                                    total)
                                                 1)))
                            (plist-get ann :lines))
          (should (equal (list (car row) (nth 1 row)) (list (car row) " ")))))
      ;; Two hot lines on screen: █ on line 32 (the hottest), ▄ on line 15.
      (should (= checked 2))
      (should (string-prefix-p "█" (nth 2 (assoc 32 rows))))
      (should (string-match-p "7\\.2% cpu" (nth 2 (assoc 32 rows))))
      (should (string-prefix-p "▄" (nth 2 (assoc 15 rows)))))))

(provide 'screen-test)
;;; screen-test.el ends here
