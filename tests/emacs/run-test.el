;;; run-test.el --- `hotlines-profile-test-at-point' runs a real Go test -*- lexical-binding: t -*-

;;; Commentary:

;; go-shop's TestWorkload, in a copy of the fixture (runs write .hotlines/
;; beside it): the test at point is found by hotlines/testsInFile and run
;; by hotlines/run, its output streams into a `hotlines-run-mode' buffer,
;; runFinished loads the profile and the open shop.go is drawn from it;
;; a second run is cancelled with C-c C-k.  Needs go; GOCACHE is
;; $HOTLINES_GO_CACHE (shared with the runs tests), the proxy is off.
;; Run by tests/emacs.cmake.

;;; Code:

(require 'hotlines-test-lib)

(hotlines-test-setup)

(defun hotlines-test-copy-go-shop ()
  "A writable copy of go-shop's sources in a fresh folder; return its root."
  (let ((root (make-temp-file "hotlines-emacs-go-shop" t)))
    (copy-file (expand-file-name "go-shop/go.mod" hotlines-test-fixtures) (concat root "/go.mod"))
    (copy-directory (expand-file-name "go-shop/internal" hotlines-test-fixtures)
                    (concat root "/internal") nil t t)
    (set-file-modes (concat root "/go.mod") #o644)
    (dolist (f (directory-files-recursively (concat root "/internal") "" t))
      (set-file-modes f (if (file-directory-p f) #o755 #o644)))
    root))

(ert-deftest hotlines-run-profiles-the-go-test-at-point ()
  (unless (executable-find "go") (ert-fail "go is not installed (scripts/deps.sh quick)"))
  (let* ((cache (or (getenv "HOTLINES_GO_CACHE") (make-temp-file "hotlines-go" t)))
         (root (hotlines-test-copy-go-shop))
         (hotlines-run-env `(("GOFLAGS" . "-mod=mod") ("GOCACHE" . ,(concat cache "/cache"))
                             ("GOPATH" . ,(concat cache "/path")) ("GOPROXY" . "off")
                             ("GOTOOLCHAIN" . "local")))
         (finished nil)
         (hotlines-run-finished-functions (list (lambda (run) (push run finished)))))
    (unwind-protect
        (let* ((shop (find-file-noselect (concat root "/internal/shop/shop.go")))
               (test-buf (find-file-noselect (concat root "/internal/shop/shop_test.go"))))
          ;; No go-mode in emacs-nox: the mode is turned on by hand, as a user would.
          (with-current-buffer shop (hotlines-mode 1) (should hotlines-mode))
          (switch-to-buffer test-buf)
          (hotlines-mode 1)
          (should (eq hotlines--connection (buffer-local-value 'hotlines--connection shop)))
          (goto-char (point-min))
          (search-forward "func TestWorkload")
          (forward-line 2)
          (hotlines-profile-test-at-point)
          (should (hotlines-test-wait 240 (lambda () finished)))
          (let* ((run (car finished))
                 (f (plist-get run :finished))
                 (out (with-current-buffer (plist-get run :buffer) (buffer-string))))
            (should (null (plist-get f :error)))
            (should (equal (plist-get f :exitCode) 0))
            (should (stringp (plist-get f :profileId)))
            (should (equal (plist-get run :test) "TestWorkload"))
            (should (equal (buffer-name (plist-get run :buffer))
                           (format "*hotlines run %s*" (plist-get run :id))))
            (with-current-buffer (plist-get run :buffer)
              (should (derived-mode-p 'compilation-mode))
              (should (eq major-mode 'hotlines-run-mode))
              (should (equal (key-binding (kbd "C-c C-k")) #'hotlines-cancel-run)))
            (should (get-buffer-window (plist-get run :buffer)))
            (should (string-match-p (regexp-quote "$ go test -count=1 -run '^TestWorkload$' -cpuprofile")
                                    out))
            (should (string-match-p (regexp-quote "ok  \texample.com/gows/internal/shop") out))
            (should (string-match-p (format "# run %s finished (exit 0, " (plist-get run :id)) out))
            ;; shop.go is drawn from the run's profile without any command.
            (should (hotlines-test-wait 10 (lambda () (buffer-local-value 'hotlines--result shop))))
            (let ((ann (hotlines-test-should-match-server shop)))
              (should (equal (plist-get ann :profileId) (plist-get f :profileId)))
              (let ((l13 (cl-find 13 (plist-get ann :lines) :key (lambda (l) (plist-get l :line)))))
                ;; Discount's loop, line 13, is in the run's profile.
                (should (> (plist-get (plist-get l13 :total) :value) 0)))))
          ;; A second run, cancelled with C-c C-k in its buffer right after it starts.
          (setq finished nil)
          (switch-to-buffer test-buf)
          (let ((first hotlines--last-run))
            (hotlines-profile-test-at-point)
            (should (hotlines-test-wait 20 (lambda () (not (eq hotlines--last-run first))))))
          (let ((run (hotlines--run hotlines--last-run)))
            (with-current-buffer (plist-get run :buffer)
              (call-interactively (key-binding (kbd "C-c C-k"))))
            (should (hotlines-test-wait 60 (lambda () finished)))
            (should (equal (plist-get (plist-get (plist-get (car finished) :finished) :error) :kind)
                           "cancelled"))))
      (hotlines-shutdown)
      (delete-directory root t))))

(ert-deftest hotlines-run-finds-the-junit-test-at-point ()
  ;; The test at point among the server's testsInFile of PricingTest.java.
  (let* ((file (expand-file-name "src/test/java/org/acme/shop/PricingTest.java"
                                 hotlines-test-java-shop))
         (buf (find-file-noselect hotlines-test-pricing))
         (found nil)
         (lines (with-temp-buffer (insert-file-contents file) (split-string (buffer-string) "\n")))
         (discount (cl-position-if (lambda (l) (string-match-p "sum \\+= p\\.discount" l)) lines))
         (labels (cl-position-if (lambda (l) (string-match-p "p\\.labels(" l)) lines)))
    (with-current-buffer buf (hotlines-mode 1))
    (setq found (plist-get (hotlines-test-server buf 'hotlines/testsInFile
                                                 (list :textDocument (list :uri (hotlines--uri file))))
                           :tests))
    (should (= (length found) 2))
    (let ((a (hotlines--test-at (append found nil) discount))
          (b (hotlines--test-at (append found nil) labels)))
      (should (equal (plist-get a :name) "org.acme.shop.PricingTest#discountIsFinite"))
      (should (equal (plist-get (plist-get a :run) :method) "discountIsFinite"))
      (should (equal (plist-get (plist-get a :run) :recipe) "java-test"))
      (should (equal (plist-get b :name) "org.acme.shop.PricingTest#labelsAreUnique"))
      (should-not (hotlines--test-at (append found nil) 0)))))

(provide 'run-test)
;;; run-test.el ends here
