;;; hotlines-test-lib.el --- Shared by the Emacs tests of hotlines.el -*- lexical-binding: t -*-

;;; Commentary:

;; Loaded by the *-test.el files that tests/emacs.cmake runs in `emacs
;; --batch -Q' with editors/emacs on the load path.  Points the package
;; at $HOTLINES_BINARY on $HOTLINES_FIXTURES (tests/fixtures), waits for
;; the server's answers by processing its output, asks the server itself
;; for the numbers the drawing must show, and reads the drawing back
;; from the heat overlays.  Single-threaded: waits run the process
;; filters and timers of Emacs's own loop.

;;; Code:

(require 'ert)
(require 'hotlines)

;; The tests edit buffers of the shared fixtures, several Emacs at once (ctest -j): no lock
;; files, so that one test's edit is never another's lock conflict (an error in batch mode).
(setq create-lockfiles nil)

(defvar hotlines-test-binary (getenv "HOTLINES_BINARY")
  "The server under test.")
(defvar hotlines-test-fixtures (getenv "HOTLINES_FIXTURES")
  "The folder of the fixture projects.")
(defvar hotlines-test-java-shop (and hotlines-test-fixtures
                                     (expand-file-name "java-shop" hotlines-test-fixtures))
  "The java-shop fixture.")
(defvar hotlines-test-pricing (and hotlines-test-java-shop
                                   (expand-file-name "src/main/java/org/acme/shop/Pricing.java"
                                                     hotlines-test-java-shop))
  "Pricing.java of java-shop.")

(defun hotlines-test-wait (seconds pred)
  "Process events until PRED is non-nil or SECONDS pass; return PRED's value."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (funcall pred)))

(defun hotlines-test-await (seconds start)
  "Call START with a callback and wait SECONDS for it; return its arguments."
  (let (args done)
    (funcall start (lambda (&rest a) (setq args a done t)))
    (should (hotlines-test-wait seconds (lambda () done)))
    args))

(defun hotlines-test-setup (&optional settings)
  "Use the server under test with SETTINGS."
  (unless (and hotlines-test-binary hotlines-test-fixtures)
    (error "HOTLINES_BINARY and HOTLINES_FIXTURES must be set"))
  (setq hotlines-server-command (list hotlines-test-binary "serve")
        hotlines-settings settings
        hotlines-indicator 'margin))

(defun hotlines-test-open (file)
  "Visit FILE in `hotlines-mode' and wait for its first heat; return the buffer."
  (let ((buf (find-file-noselect file)))
    (with-current-buffer buf
      (setq buffer-read-only nil)
      (unless hotlines-mode (hotlines-mode 1))
      (should hotlines-mode)
      (should (hotlines-test-wait 30 (lambda ()
                                       (and hotlines--result
                                            (> (length (plist-get hotlines--result :lines)) 0))))))
    (switch-to-buffer buf)
    buf))

(defun hotlines-test-server (buf method &optional params)
  "The server's answer to METHOD with PARAMS, on the connection of BUF."
  (with-current-buffer buf
    (hotlines--request-sync hotlines--connection method (or params hotlines--empty))))

(defun hotlines-test-annotations (buf)
  "The server's fileAnnotations of BUF now."
  (hotlines-test-server buf 'hotlines/fileAnnotations
                        (list :textDocument (list :uri (with-current-buffer buf
                                                         (hotlines--doc-uri))))))

(defun hotlines-test-marks (buf)
  "The heat drawn in BUF: an alist of (LINE TEXT GLYPH), sorted by line.
TEXT is the end-of-line text, GLYPH the margin glyph or nil."
  (with-current-buffer buf
    (sort (mapcar (lambda (ov)
                    (let* ((before (overlay-get ov 'before-string))
                           (display (and before (get-text-property 0 'display before))))
                      (list (line-number-at-pos (overlay-start ov) t)
                            (string-trim (substring-no-properties (overlay-get ov 'after-string)))
                            (and display (equal (car display) '(margin left-margin))
                                 (substring-no-properties (cadr display))))))
                  (cl-remove-if-not (lambda (ov) (overlay-get ov 'hotlines))
                                    (overlays-in (point-min) (point-max))))
          (lambda (a b) (< (car a) (car b))))))

(defun hotlines-test-expected (ann)
  "The texts the heat must show for the fileAnnotations ANN, computed here.
An alist of (LINE TEXT): the self share of lines reaching 1% of the
value, else the total share."
  (let ((total (float (plist-get (plist-get ann :total) :value)))
        (event (plist-get ann :event))
        out)
    (dolist (l (append (plist-get ann :lines) nil))
      (let ((self (/ (* 100 (plist-get (plist-get l :self) :value)) total))
            (tot (/ (* 100 (plist-get (plist-get l :total) :value)) total)))
        (cond ((>= self 1) (push (list (plist-get l :line) (format "%.1f%% %s" self event)) out))
              ((>= tot 1) (push (list (plist-get l :line) (format "↳ %.1f%% %s total" tot event))
                                out)))))
    (nreverse out)))

(defun hotlines-test-texts (buf)
  "The heat texts of BUF as an alist of (LINE TEXT)."
  (mapcar (lambda (m) (list (nth 0 m) (nth 1 m))) (hotlines-test-marks buf)))

(defun hotlines-test-text-at (buf line)
  "The heat text of LINE in BUF, or nil."
  (nth 1 (assoc line (hotlines-test-marks buf))))

(defun hotlines-test-should-match-server (buf)
  "Check that the heat of BUF is the server's fileAnnotations; return them."
  (let ((ann (hotlines-test-annotations buf)))
    (should (hotlines-test-expected ann))
    (should (equal (hotlines-test-texts buf) (hotlines-test-expected ann)))
    ann))

(defun hotlines-test-redrawn (buf before)
  "Wait until BUF draws an answer asked for after request number BEFORE."
  (hotlines-test-wait 20 (lambda ()
                           (with-current-buffer buf
                             (and (> hotlines--asked before)
                                  (= hotlines--drawn hotlines--asked))))))

(provide 'hotlines-test-lib)
;;; hotlines-test-lib.el ends here
