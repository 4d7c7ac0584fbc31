;;; package-test.el --- hotlines.el compiles cleanly, passes checkdoc, installs -*- lexical-binding: t -*-

;;; Commentary:

;; Run by tests/emacs.cmake: `emacs --batch -Q -l package-test.el -f
;; ert-run-tests-batch-and-exit', with HOTLINES_EL the package file.
;; Byte-compiles it (into a temporary folder: the source tree stays
;; clean) with every warning an error, runs checkdoc on it, and installs
;; it with `package-install-file' into a temporary package folder.  Needs
;; no server.  Single-threaded, like all of Emacs.

;;; Code:

(require 'ert)
(require 'checkdoc)
(require 'package)

(defvar hotlines-test-el
  (or (getenv "HOTLINES_EL")
      (expand-file-name "../../editors/emacs/hotlines.el"
                        (file-name-directory (or load-file-name buffer-file-name))))
  "The package file under test.")

(ert-deftest hotlines-package-byte-compiles-without-warnings ()
  (let* ((tmp (make-temp-file "hotlines-elc" t))
         (byte-compile-dest-file-function
          (lambda (f) (expand-file-name (concat (file-name-nondirectory f) "c") tmp)))
         (byte-compile-error-on-warn t)
         (log (get-buffer-create byte-compile-log-buffer)))
    (with-current-buffer log (let ((inhibit-read-only t)) (erase-buffer)))
    (unwind-protect
        (let ((ok (byte-compile-file hotlines-test-el)))
          (should (equal (list ok (with-current-buffer log (string-trim (buffer-string))))
                         (list t "")))
          (should (file-exists-p (expand-file-name "hotlines.elc" tmp))))
      (delete-directory tmp t))))

(ert-deftest hotlines-package-passes-checkdoc ()
  (let ((checkdoc-diagnostic-buffer "*hotlines checkdoc*")
        (checkdoc-autofix-flag 'never)
        (checkdoc-spellcheck-documentation-flag nil)
        (messages nil))
    (when (get-buffer checkdoc-diagnostic-buffer) (kill-buffer checkdoc-diagnostic-buffer))
    ;; checkdoc-file reports through `checkdoc-create-error-function' in batch.
    (let ((checkdoc-create-error-function
           (lambda (text start _end &optional _unfixable)
             (push (format "%d: %s" start text) messages)
             nil)))
      (with-current-buffer (find-file-noselect hotlines-test-el)
        (checkdoc-current-buffer t)))
    (let ((diag (and (get-buffer checkdoc-diagnostic-buffer)
                     (with-current-buffer checkdoc-diagnostic-buffer
                       (buffer-string)))))
      ;; The diagnostic buffer holds only its header lines when nothing is wrong.
      (should (equal (nreverse messages) nil))
      (should-not (and diag (string-match-p "hotlines.el:[0-9]+:" diag))))))

(ert-deftest hotlines-package-installs-with-package-install-file ()
  (let* ((package-user-dir (make-temp-file "hotlines-elpa" t))
         (package-archives nil)
         (package-directory-list nil)
         (package-check-signature nil))
    (unwind-protect
        (progn
          (package-initialize)
          (package-install-file hotlines-test-el)
          (let ((desc (cadr (assq 'hotlines package-alist))))
            (should desc)
            (should (equal (package-version-join (package-desc-version desc)) "0.1.0"))
            (should (equal (package-desc-summary desc) "Profile heat from the hotlines server"))
            (should (file-exists-p (expand-file-name "hotlines.elc" (package-desc-dir desc))))
            (should (file-exists-p (expand-file-name "hotlines-autoloads.el"
                                                     (package-desc-dir desc)))))
          (should (string-prefix-p (file-truename package-user-dir)
                                   (file-truename (locate-library "hotlines"))))
          (require 'hotlines)
          (should (commandp 'hotlines-profile-test-at-point))
          (should (commandp 'hotlines-mode)))
      (delete-directory package-user-dir t))))

(provide 'package-test)
;;; package-test.el ends here
