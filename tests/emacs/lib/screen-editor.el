;;; screen-editor.el --- The editor side of screen-test.el, run inside tmux -*- lexical-binding: t -*-

;;; Commentary:

;; `emacs -nw -Q' in tmux loads this: hotlines.el on Pricing.java with
;; line numbers; once the heat is drawn it writes the server's
;; fileAnnotations (asked on its own, not read from the drawing) to
;; $HOTLINES_SCREEN_READY for the outer test to compare with the screen.

;;; Code:

(require 'hotlines-test-lib)

(setq inhibit-startup-screen t)
(menu-bar-mode -1)
(hotlines-test-setup '(:profiles ("profiles/ap-cpu.jfr")))
;; The terminal's default: the margin, not the fringe.
(setq hotlines-indicator 'auto)
(let ((buf (hotlines-test-open hotlines-test-pricing)))
  (delete-other-windows)
  (with-current-buffer buf
    (setq display-line-numbers-width 3)
    (display-line-numbers-mode 1)
    (goto-char (point-min)))
  (let ((ann (hotlines-test-annotations buf))
        (ready (getenv "HOTLINES_SCREEN_READY")))
    (redisplay t)
    ;; Written aside, then renamed: the outer test never reads a half-written file.
    (run-at-time 0.3 nil
                 (lambda ()
                   (redisplay t)
                   (with-temp-file (concat ready ".part")
                     (insert (json-serialize ann :false-object :json-false :null-object nil)))
                   (rename-file (concat ready ".part") ready t)))))

(provide 'screen-editor)
;;; screen-editor.el ends here
