;;; hotlines.el --- Profile heat from the hotlines server -*- lexical-binding: t -*-

;; Copyright (C) the hotlines project

;; Author: the hotlines project
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))
;; Keywords: tools, languages, convenience
;; URL: https://github.com/hotlines/hotlines

;; This file is not part of GNU Emacs.

;;; Commentary:

;; hotlines is a profile language server: it loads JFR, pprof and
;; collapsed-stack profiles and tells an editor which lines and methods
;; are hot.  This package starts `hotlines serve' and draws what it
;; answers; it computes nothing itself.
;;
;; - Heat: a fringe bitmap (a margin glyph in a terminal) in 5 levels on
;;   hot lines and the line's share at its end (`7.2% cpu', or
;;   `↳ 20.6% cpu total' on a line that passes its time to callees);
;;   with a baseline, the change (`+0.5% cpu vs baseline') in red or
;;   green.  Redrawn on load, reload, view changes and edits.
;; - Lists: `hotlines-hot-methods' and `hotlines-hot-lines' (RET jumps),
;;   `hotlines-callers' and `hotlines-callees' as xref lists,
;;   `hotlines-imenu' to jump to a hot method.
;; - Views: `hotlines-load-profile', `hotlines-select-event',
;;   `hotlines-select-threads', `hotlines-select-window',
;;   `hotlines-select-baseline', `hotlines-flame-graph'.
;; - Runs: `hotlines-profile-test-at-point' profiles the JUnit, Go,
;;   node:test or GoogleTest test at point; its output streams into a compilation-style buffer
;;   (`C-c C-k' cancels) and the profile loads when it ends.
;;
;; Setup:
;;
;;   (require 'hotlines)
;;   (setq hotlines-settings '(:profiles ["profiles/cpu.jfr"]))
;;   (hotlines-setup)   ; `hotlines-mode' in the modes of `hotlines-major-modes'
;;
;; Eglot 1.9 runs one server per major mode and project, so hotlines
;; cannot sit beside jdtls or gopls there.  This package therefore keeps
;; a connection of its own over jsonrpc.el (one per project root) and
;; sends it the buffer's text and edits: eglot (or lsp-mode) keeps the
;; language server, hotlines adds the heat.
;;
;; Everything runs on Emacs's command loop: server messages arrive
;; through the process filter, redraws and edit notifications through
;; timers.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)
(require 'jsonrpc)
(require 'compile)
(require 'tabulated-list)
(require 'url-util)
(require 'xref)
(require 'browse-url)

(defconst hotlines-version "0.1.0"
  "The version of this package.")

;;;; Customization

(defgroup hotlines nil
  "Profile heat from the hotlines language server."
  :group 'tools
  :prefix "hotlines-")

(defcustom hotlines-server-command '("hotlines" "serve")
  "The command that starts the server, a program and its arguments."
  :type '(repeat string))

(defcustom hotlines-settings nil
  "The server's settings, sent as `initializationOptions'.
A plist of the keys of protocol/README.md \"Configuration\", for
example (:profiles [\"profiles/cpu.jfr\"] :event \"cpu\").  Lists of
strings may be written as lists or vectors; nested objects as plists:
\(:annotations (:minPercent 2)).  After changing it, run
`hotlines-send-settings' to tell running servers."
  :type '(plist :key-type keyword :value-type sexp))

(defcustom hotlines-major-modes
  '(java-mode java-ts-mode kotlin-mode kotlin-ts-mode go-mode go-ts-mode
              c-mode c-ts-mode c++-mode c++-ts-mode js-mode js-ts-mode
              typescript-mode typescript-ts-mode rust-mode rust-ts-mode)
  "Major modes in which `hotlines-setup' turns on `hotlines-mode'."
  :type '(repeat symbol))

(defcustom hotlines-root-markers
  '("pom.xml" "build.gradle" "build.gradle.kts" "settings.gradle"
    "settings.gradle.kts" "go.mod" "CMakeLists.txt" "package.json" "Cargo.toml"
    ".git")
  "Files whose nearest folder up from a buffer's file is its project root.
Each root gets one server."
  :type '(repeat string))

(defcustom hotlines-indicator 'auto
  "Where the heat level of a line is drawn.
`fringe' draws bitmaps in the left fringe, `margin' glyphs in the
left margin, `auto' the fringe on graphic displays and the margin
in a terminal."
  :type '(choice (const auto) (const fringe) (const margin)))

(defcustom hotlines-margin-glyphs ["▁" "▃" "▄" "▆" "█"]
  "The margin glyphs of the 5 heat levels, coolest first (one cell each)."
  :type '(vector string string string string string))

(defcustom hotlines-min-percent 1.0
  "Lines whose self and total shares are below this get no heat."
  :type 'number)

(defcustom hotlines-refresh-delay 0.2
  "Seconds after the last edit before the heat is asked for again."
  :type 'number)

(defcustom hotlines-hot-limit 50
  "How many entries the hot lists show."
  :type 'integer)

(defcustom hotlines-profile-extensions
  '(".jfr" ".jfr.gz" ".pb.gz" ".pb" ".pprof" ".collapsed" ".prof")
  "File name endings `hotlines-load-profile' offers."
  :type '(repeat string))

(defcustom hotlines-run-env nil
  "Environment added to profiled runs, an alist of (NAME . VALUE) strings."
  :type '(alist :key-type string :value-type string))

(defcustom hotlines-run-timeout-ms 0
  "Milliseconds after which a profiled run is stopped (0: never)."
  :type 'integer)

(defcustom hotlines-request-timeout 120
  "Seconds to wait for the server's answer to a request."
  :type 'number)

(defcustom hotlines-events-buffer-size 0
  "Characters of JSON-RPC messages kept in each server's events buffer.
0 keeps none, nil all (see `jsonrpc-events-buffer'), for debugging."
  :type '(choice (const :tag "All" nil) integer))

(defcustom hotlines-run-finished-functions nil
  "Functions called with the run's state when a profiled run ends.
The argument is a plist: :id, :test, :buffer, and :finished, the
`hotlines/runFinished' params."
  :type 'hook)

(defface hotlines-heat-1 '((((class color) (min-colors 88)) :foreground "#8a8a5c")
                           (t :foreground "yellow"))
  "Heat level 1 (coolest)."
  :group 'hotlines)
(defface hotlines-heat-2 '((((class color) (min-colors 88)) :foreground "#c9b458")
                           (t :foreground "yellow"))
  "Heat level 2."
  :group 'hotlines)
(defface hotlines-heat-3 '((((class color) (min-colors 88)) :foreground "#e5a54b")
                           (t :foreground "yellow"))
  "Heat level 3."
  :group 'hotlines)
(defface hotlines-heat-4 '((((class color) (min-colors 88)) :foreground "#e57a3c")
                           (t :foreground "red"))
  "Heat level 4."
  :group 'hotlines)
(defface hotlines-heat-5 '((((class color) (min-colors 88)) :foreground "#e0453a")
                           (t :foreground "red"))
  "Heat level 5 (hottest)."
  :group 'hotlines)
(defface hotlines-text '((((class color) (min-colors 88)) :foreground "#e57a3c")
                         (t :foreground "red"))
  "The self share at the end of a hot line."
  :group 'hotlines)
(defface hotlines-total '((t :inherit shadow))
  "The total share at the end of a line that passes time to callees."
  :group 'hotlines)
(defface hotlines-slower '((((class color) (min-colors 88)) :foreground "#fa5f5f")
                           (t :foreground "red"))
  "A line slower than in the baseline."
  :group 'hotlines)
(defface hotlines-faster '((((class color) (min-colors 88)) :foreground "#5fb05f")
                           (t :foreground "green"))
  "A line faster than in the baseline."
  :group 'hotlines)

(defconst hotlines--heat-faces
  [hotlines-heat-1 hotlines-heat-2 hotlines-heat-3 hotlines-heat-4 hotlines-heat-5]
  "The faces of the heat levels 1 to 5.")

(defconst hotlines--fringe-bitmaps
  [hotlines-fringe-1 hotlines-fringe-2 hotlines-fringe-3 hotlines-fringe-4
                     hotlines-fringe-5]
  "The fringe bitmaps of the heat levels 1 to 5: bars 2 to 8 pixels wide.")

(when (fboundp 'define-fringe-bitmap)
  (dotimes (i 5)
    (let ((bits (aref [#b10000000 #b11000000 #b11100000 #b11110000 #b11111111] i)))
      (define-fringe-bitmap (aref hotlines--fringe-bitmaps i)
        (vector bits) nil 8 '(center t)))))

;;;; State

(defvar-local hotlines--overlays nil
  "The heat overlays of this buffer.")
(defvar-local hotlines--result nil
  "The `hotlines/fileAnnotations' answer drawn in this buffer.")
(defvar-local hotlines--timer nil
  "The pending refresh after edits.")
(defvar-local hotlines--asked 0
  "The number of the last heat request of this buffer.")
(defvar-local hotlines--drawn 0
  "The number of the heat request whose answer is drawn.")
(defvar-local hotlines--waiting nil
  "Functions to call once the answer of the last heat request is drawn.")

(defvar hotlines--request-count 0
  "Numbers heat requests; an answer older than the buffer's last is dropped.")

(defvar hotlines--last-profile nil
  "The last profile summary loaded, by connection (an alist).")

;;;; JSON and URIs

(defconst hotlines--empty (make-hash-table)
  "An empty JSON object (nil is sent as null).")

(defun hotlines--json (value)
  "VALUE with its lists of non-keywords turned into vectors, for JSON."
  (cond ((and (consp value) (keywordp (car value)))
         (cl-loop for (k v) on value by #'cddr
                  append (list k (hotlines--json v))))
        ((consp value) (vconcat (mapcar #'hotlines--json value)))
        ((vectorp value) (vconcat (mapcar #'hotlines--json value)))
        (t value)))

(defun hotlines--uri (file)
  "The file URI of FILE."
  (concat "file://"
          (url-hexify-string (encode-coding-string (expand-file-name file) 'utf-8)
                             url-path-allowed-chars)))

(defun hotlines--file (uri)
  "The file name of the file URI, or nil when URI is not a file URI."
  (when (and (stringp uri) (string-prefix-p "file://" uri))
    (decode-coding-string (url-unhex-string (substring uri 7)) 'utf-8)))

(defun hotlines--num (plist key)
  "The number under KEY of PLIST, else 0."
  (let ((v (and (listp plist) (plist-get plist key))))
    (if (numberp v) v 0)))

(defun hotlines--str (plist key)
  "The string under KEY of PLIST, else the empty string."
  (let ((v (and (listp plist) (plist-get plist key))))
    (if (stringp v) v "")))

(defun hotlines--seq (plist key)
  "The array under KEY of PLIST as a list, else nil."
  (let ((v (and (listp plist) (plist-get plist key))))
    (if (vectorp v) (append v nil) nil)))

;;;; Connections

(defclass hotlines-connection (jsonrpc-process-connection)
  ((root :initarg :root :reader hotlines--root
         :documentation "The project root the server was started for.")
   (buffers :initform nil :accessor hotlines--buffers
            :documentation "The buffers in `hotlines-mode' on this server.")
   (closing :initform nil :accessor hotlines--closing
            :documentation "Non-nil once `hotlines-shutdown' asked it to stop."))
  :documentation "A connection to one `hotlines serve' process.")

(defvar hotlines--connections (make-hash-table :test #'equal)
  "The running servers by project root.")

(defvar-local hotlines--connection nil
  "The server of this buffer.")

(defun hotlines--find-root (file)
  "The nearest folder up from FILE holding one of `hotlines-root-markers'."
  (let ((dir (file-name-directory (expand-file-name file))) best)
    (dolist (marker hotlines-root-markers)
      (let ((found (locate-dominating-file dir marker)))
        (when (and found (> (length found) (length best)))
          (setq best found))))
    (directory-file-name (expand-file-name (or best dir)))))

(defun hotlines--init-options ()
  "The `initializationOptions': `hotlines-settings' and annotationsChanged."
  (plist-put (copy-sequence (hotlines--json hotlines-settings)) :annotationsChanged t))

(defun hotlines--start (root)
  "Start a server for ROOT, initialize it and return its connection."
  (let* ((program (car hotlines-server-command))
         (name (format "hotlines %s" root))
         (default-directory (file-name-as-directory root))
         conn)
    (unless (and program (or (executable-find program)
                             (file-executable-p program)))
      (user-error "The hotlines server %s is not executable (set `hotlines-server-command')"
                  program))
    (setq conn
          (make-instance
           'hotlines-connection
           :name name :root root
           :events-buffer-scrollback-size hotlines-events-buffer-size
           :notification-dispatcher #'hotlines--on-notification
           :request-dispatcher #'hotlines--on-request
           :on-shutdown #'hotlines--on-shutdown
           :process (lambda ()
                      (make-process
                       :name name :command hotlines-server-command
                       :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                       :stderr (get-buffer-create (format "*%s stderr*" name))))))
    (puthash root conn hotlines--connections)
    (condition-case err
        (jsonrpc-request
         conn 'initialize
         (list :processId (emacs-pid)
               :rootUri (hotlines--uri root) :rootPath root
               :workspaceFolders (vector (list :uri (hotlines--uri root) :name root))
               :clientInfo (list :name "hotlines.el" :version hotlines-version)
               :capabilities (list :window (list :showDocument (list :support t)))
               :initializationOptions (hotlines--init-options))
         :timeout 30)
      (error (setf (hotlines--closing conn) t)
             (jsonrpc-shutdown conn)
             (error "The hotlines server did not initialize: %s"
                    (error-message-string err))))
    (jsonrpc-notify conn 'initialized hotlines--empty)
    conn))

(defun hotlines--connect (root)
  "The running server of ROOT, started when there is none."
  (let ((conn (gethash root hotlines--connections)))
    (if (and conn (jsonrpc-running-p conn)) conn (hotlines--start root))))

(defun hotlines--on-shutdown (conn)
  "Forget CONN, whose process ended, and clear the heat it drew."
  (when (eq (gethash (hotlines--root conn) hotlines--connections) conn)
    (remhash (hotlines--root conn) hotlines--connections))
  (dolist (buf (copy-sequence (hotlines--buffers conn)))
    (when (buffer-live-p buf)
      (with-current-buffer buf (hotlines-mode -1))))
  (unless (hotlines--closing conn)
    (message "hotlines: the server of %s ended (see its buffer %s)"
             (hotlines--root conn) (format "*%s stderr*" (jsonrpc-name conn)))))

(defun hotlines--current-connection ()
  "The server of this buffer, else the only one running, else an error."
  (or (and hotlines--connection (jsonrpc-running-p hotlines--connection)
           hotlines--connection)
      (let (running)
        (maphash (lambda (_ c) (when (jsonrpc-running-p c) (push c running)))
                 hotlines--connections)
        (cond ((= (length running) 1) (car running))
              (running (user-error "Several hotlines servers run; use a buffer in `hotlines-mode'"))
              (t (user-error "No hotlines server (turn on `hotlines-mode' in a source buffer)"))))))

(defun hotlines--error-message (err)
  "The message of the JSON-RPC error ERR."
  (or (and (listp err) (stringp (plist-get err :message)) (plist-get err :message))
      (format "%S" err)))

(defun hotlines--request (conn method params on-result &optional on-error)
  "Send METHOD with PARAMS on CONN; call ON-RESULT with the result.
ON-ERROR gets the error object (default: report it)."
  (let ((on-error (or on-error
                      (lambda (err)
                        (message "hotlines: %s: %s" method (hotlines--error-message err))))))
    (hotlines--flush conn)
    (jsonrpc-async-request conn method params
                           :success-fn on-result
                           :error-fn on-error
                           :timeout hotlines-request-timeout
                           :timeout-fn (lambda ()
                                         (funcall on-error '(:code -1 :message "timed out"))))))

(defun hotlines--request-sync (conn method params)
  "The result of METHOD with PARAMS on CONN (waits; errors signal)."
  (hotlines--flush conn)
  (jsonrpc-request conn method params :timeout hotlines-request-timeout))

(defun hotlines--command (conn command arg on-result &optional on-error)
  "Run the server's COMMAND with ARG on CONN; call ON-RESULT or ON-ERROR."
  (hotlines--request conn 'workspace/executeCommand
                     (list :command command :arguments (vector arg))
                     on-result on-error))

(defun hotlines--on-notification (conn method params)
  "Handle the server's notification METHOD with PARAMS on CONN."
  (pcase method
    ((or 'hotlines/profileLoaded 'hotlines/profileChanged)
     (setf (alist-get conn hotlines--last-profile) params)
     (hotlines--refresh-all conn))
    ('hotlines/annotationsChanged (hotlines--refresh-all conn))
    ('hotlines/runOutput (hotlines--run-output conn params))
    ('hotlines/runFinished (hotlines--run-finished conn params))
    ('window/showMessage
     (message "hotlines: %s" (hotlines--str params :message)))))

(defun hotlines--on-request (_conn method params)
  "Answer the server's request METHOD with PARAMS."
  (pcase method
    ('window/showDocument (hotlines--show-document params))
    (_ (jsonrpc-error :code -32601 :message (format "%s is not supported" method)))))

;;;; Documents

(defvar-local hotlines--version 0
  "The version of this buffer's text last sent to the server.")
(defvar-local hotlines--changes nil
  "Content changes not yet sent, newest first; `full' for the whole text.")
(defvar-local hotlines--before-change nil
  "The region about to change: (BEG END START-POSITION END-POSITION).")

(defun hotlines--position (pos)
  "The LSP position of POS: 0-based line and UTF-16 column."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char pos)
      (list :line (1- (line-number-at-pos pos t))
            :character (/ (length (encode-coding-string
                                   (buffer-substring-no-properties (line-beginning-position) pos)
                                   'utf-16le t))
                          2)))))

(defun hotlines--text ()
  "The whole text of the buffer."
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun hotlines--language-id ()
  "The LSP language id of the buffer's file."
  (let ((ext (downcase (or (file-name-extension buffer-file-name) ""))))
    (or (cdr (assoc ext '(("java" . "java") ("kt" . "kotlin") ("kts" . "kotlin")
                          ("go" . "go") ("c" . "c") ("h" . "c") ("cc" . "cpp")
                          ("cpp" . "cpp") ("cxx" . "cpp") ("hpp" . "cpp")
                          ("js" . "javascript") ("ts" . "typescript"))))
        "plaintext")))

(defun hotlines--doc-uri ()
  "The URI of the buffer's file."
  (hotlines--uri buffer-file-name))

(defun hotlines--before-change (beg end)
  "Remember the LSP positions of BEG and END before they change."
  (setq hotlines--before-change
        (list beg end (hotlines--position beg) (hotlines--position end))))

(defun hotlines--after-change (beg end old-length)
  "Queue the change of BEG..END (OLD-LENGTH characters before) for the server."
  (let ((before hotlines--before-change))
    (setq hotlines--before-change nil)
    (if (or (eq hotlines--changes 'full)
            (not before)
            (/= (nth 0 before) beg)
            (/= (nth 1 before) (+ beg old-length)))
        (setq hotlines--changes 'full)
      (push (list :range (list :start (nth 2 before) :end (nth 3 before))
                  :text (buffer-substring-no-properties beg end))
            hotlines--changes)))
  (hotlines--schedule-refresh))

(defun hotlines--flush-buffer ()
  "Send the edits of the buffer not yet sent."
  (when (and hotlines--changes hotlines--connection)
    (let ((changes (if (eq hotlines--changes 'full)
                       (vector (list :text (hotlines--text)))
                     (vconcat (reverse hotlines--changes)))))
      (setq hotlines--changes nil)
      (cl-incf hotlines--version)
      (jsonrpc-notify hotlines--connection 'textDocument/didChange
                      (list :textDocument (list :uri (hotlines--doc-uri)
                                                :version hotlines--version)
                            :contentChanges changes)))))

(defun hotlines--flush (conn)
  "Send the unsent edits of every buffer of CONN (before any request)."
  (dolist (buf (hotlines--buffers conn))
    (when (buffer-live-p buf)
      (with-current-buffer buf (hotlines--flush-buffer)))))

(defun hotlines--attach ()
  "Start or reuse the server of this buffer's root and open the buffer there."
  (let ((conn (hotlines--connect (hotlines--find-root buffer-file-name))))
    (setq hotlines--connection conn
          hotlines--version 0
          hotlines--changes nil)
    (cl-pushnew (current-buffer) (hotlines--buffers conn))
    (jsonrpc-notify conn 'textDocument/didOpen
                    (list :textDocument (list :uri (hotlines--doc-uri)
                                              :languageId (hotlines--language-id)
                                              :version 0
                                              :text (hotlines--text))))
    (add-hook 'before-change-functions #'hotlines--before-change nil t)
    (add-hook 'after-change-functions #'hotlines--after-change nil t)
    (add-hook 'kill-buffer-hook #'hotlines--detach nil t)
    (add-hook 'change-major-mode-hook #'hotlines--detach nil t)
    (hotlines-refresh)))

(defun hotlines--detach ()
  "Close the buffer on its server and remove its heat."
  (remove-hook 'before-change-functions #'hotlines--before-change t)
  (remove-hook 'after-change-functions #'hotlines--after-change t)
  (remove-hook 'kill-buffer-hook #'hotlines--detach t)
  (remove-hook 'change-major-mode-hook #'hotlines--detach t)
  (when hotlines--timer (cancel-timer hotlines--timer))
  (hotlines--clear)
  (let ((conn hotlines--connection))
    (setq hotlines--connection nil)
    (when conn
      (setf (hotlines--buffers conn) (delq (current-buffer) (hotlines--buffers conn)))
      (when (jsonrpc-running-p conn)
        (jsonrpc-notify conn 'textDocument/didClose
                        (list :textDocument (list :uri (hotlines--doc-uri))))))))

;;;###autoload
(define-minor-mode hotlines-mode
  "Show the profile heat of this buffer from the hotlines server.
Starts `hotlines serve' for the buffer's project root (see
`hotlines-root-markers') with `hotlines-settings', sends it the
buffer's text and edits, and draws the heat it answers."
  :lighter " Hot"
  :group 'hotlines
  (cond ((not hotlines-mode) (hotlines--detach))
        ((not buffer-file-name)
         (setq hotlines-mode nil)
         (message "hotlines: only buffers visiting a file have heat"))
        (t (condition-case err
               (hotlines--attach)
             (error (setq hotlines-mode nil)
                    (hotlines--detach)
                    (message "%s" (error-message-string err)))))))

(defun hotlines--maybe-enable ()
  "Turn on `hotlines-mode' in file buffers of `hotlines-major-modes'."
  (when (and buffer-file-name (not hotlines-mode)
             (apply #'derived-mode-p hotlines-major-modes))
    (hotlines-mode 1)))

;;;###autoload
(defun hotlines-setup ()
  "Turn on `hotlines-mode' in buffers of `hotlines-major-modes', now and later."
  (interactive)
  (add-hook 'after-change-major-mode-hook #'hotlines--maybe-enable)
  (dolist (buf (buffer-list))
    (with-current-buffer buf (hotlines--maybe-enable))))

(defun hotlines-shutdown ()
  "Stop every hotlines server and each profiled run it started."
  (interactive)
  (maphash (lambda (_ conn)
             (setf (hotlines--closing conn) t)
             (when (jsonrpc-running-p conn)
               (ignore-errors (jsonrpc-request conn 'shutdown nil :timeout 5))
               (ignore-errors (jsonrpc-notify conn 'exit nil))
               (jsonrpc-shutdown conn)))
           hotlines--connections)
  (clrhash hotlines--connections))

(defun hotlines-send-settings ()
  "Send `hotlines-settings' to every running server."
  (interactive)
  (maphash (lambda (_ conn)
             (when (jsonrpc-running-p conn)
               (jsonrpc-notify conn 'workspace/didChangeConfiguration
                               (list :settings (hotlines--json hotlines-settings)))))
           hotlines--connections))

;;;; Heat

(defun hotlines--share (weight total)
  "The share in percent of WEIGHT in TOTAL, by the configured measure."
  (let* ((key (if (equal (plist-get hotlines-settings :measure) "count") :count :value))
         (tot (hotlines--num total key)))
    (if (zerop tot) 0.0 (/ (* 100.0 (hotlines--num weight key)) tot))))

(defun hotlines--percent (pct)
  "PCT formatted like the server's hints: \"4.2%\", \"<0.1%\"."
  (if (and (> pct 0) (< pct 0.05)) "<0.1%" (format "%.1f%%" pct)))

(defun hotlines--level (fraction)
  "The heat level 1..5 of FRACTION (0..1)."
  (max 1 (min 5 (ceiling (* 5 fraction)))))

(defun hotlines--marks (result)
  "Compute what to draw for the fileAnnotations answer RESULT.
Each is a plist (:line :level :face :text :text-face); :level is nil
for a line that only passes time to its callees."
  (let* ((event (hotlines--str result :event))
         (total (plist-get result :total))
         (lines (hotlines--seq result :lines))
         (deltas (delq nil (mapcar (lambda (l) (let ((d (plist-get l :delta)))
                                                 (and (numberp d) (abs d))))
                                   lines)))
         (max-delta (if deltas (apply #'max deltas) 0))
         marks)
    (dolist (l lines)
      (let ((line (hotlines--num l :line))
            (delta (plist-get l :delta)))
        (if deltas
            (when (and (numberp delta) (>= (abs delta) 0.05) (> max-delta 0))
              (let ((face (if (> delta 0) 'hotlines-slower 'hotlines-faster)))
                (push (list :line line :level (hotlines--level (/ (abs delta) max-delta))
                            :face face :text-face face
                            :text (format "%s%.1f%% %s vs baseline"
                                          (if (> delta 0) "+" "") delta event))
                      marks)))
          (let ((self (hotlines--share (plist-get l :self) total))
                (tot (hotlines--share (plist-get l :total) total)))
            (cond ((>= self hotlines-min-percent)
                   (let ((level (hotlines--level (hotlines--num l :heat))))
                     (push (list :line line :level level
                                 :face (aref hotlines--heat-faces (1- level))
                                 :text (format "%s %s" (hotlines--percent self) event)
                                 :text-face 'hotlines-text)
                           marks)))
                  ((>= tot hotlines-min-percent)
                   (push (list :line line :level nil
                               :text (format "↳ %s %s total" (hotlines--percent tot) event)
                               :text-face 'hotlines-total)
                         marks)))))))
    (nreverse marks)))

(defun hotlines--use-fringe-p ()
  "Whether heat levels go to the fringe (else to the margin)."
  (pcase hotlines-indicator
    ('fringe (fboundp 'define-fringe-bitmap))
    ('margin nil)
    (_ (and (display-graphic-p) (fboundp 'define-fringe-bitmap)))))

(defun hotlines--indicator (level face)
  "The string showing heat LEVEL in FACE in the fringe or margin."
  (propertize " " 'display
              (if (hotlines--use-fringe-p)
                  (list 'left-fringe (aref hotlines--fringe-bitmaps (1- level)) face)
                (list '(margin left-margin)
                      (propertize (aref hotlines-margin-glyphs (1- level)) 'face face)))))

(defun hotlines--set-margin (width)
  "Set the left margin of the buffer and its windows to WIDTH."
  (setq left-margin-width width)
  (dolist (win (get-buffer-window-list nil nil t))
    (set-window-margins win width (cdr (window-margins win)))))

(defun hotlines--clear ()
  "Remove the heat of the buffer."
  (mapc #'delete-overlay hotlines--overlays)
  (setq hotlines--overlays nil)
  (when (local-variable-p 'left-margin-width)
    (hotlines--set-margin 0)
    (kill-local-variable 'left-margin-width)))

(defun hotlines--render (result)
  "Draw the fileAnnotations answer RESULT in the buffer."
  (hotlines--clear)
  (let ((marks (hotlines--marks result)))
    (when (and marks (not (hotlines--use-fringe-p)))
      (hotlines--set-margin 1))
    (save-excursion
      (save-restriction
        (widen)
        (let ((count (line-number-at-pos (point-max) t)))
          (dolist (m marks)
            (let ((line (plist-get m :line)))
              (when (<= 1 line count)
                (goto-char (point-min))
                (forward-line (1- line))
                (let ((ov (make-overlay (line-beginning-position) (line-end-position) nil t nil)))
                  (overlay-put ov 'hotlines m)
                  (overlay-put ov 'priority 20)
                  (when (plist-get m :level)
                    (overlay-put ov 'before-string
                                 (hotlines--indicator (plist-get m :level) (plist-get m :face))))
                  (overlay-put ov 'after-string
                               (concat "  " (propertize (plist-get m :text)
                                                        'face (plist-get m :text-face))))
                  (push ov hotlines--overlays))))))))))

(defun hotlines-refresh (&optional done)
  "Ask the server for the heat of this buffer and draw it.
DONE, when non-nil, is called with no arguments once this or a later
request's answer is drawn."
  (interactive)
  (let ((buf (current-buffer))
        (conn hotlines--connection))
    (if (not (and conn (jsonrpc-running-p conn)))
        (when done (funcall done))
      (let ((n (cl-incf hotlines--request-count)))
        (setq hotlines--asked n)
        (when done (push done hotlines--waiting))
        (let ((answer
               (lambda (result)
                 (if (not (buffer-live-p buf))
                     (when done (funcall done))
                   (with-current-buffer buf
                     ;; An older answer is dropped; the newer one calls its waiters.
                     (when (= hotlines--asked n)
                       (setq hotlines--result result)
                       (if result (hotlines--render result) (hotlines--clear))
                       (setq hotlines--drawn n)
                       (let ((waiting (nreverse hotlines--waiting)))
                         (setq hotlines--waiting nil)
                         (mapc #'funcall waiting))))))))
          ;; No profile yet (-32602) or one reloading (-32801): nothing to draw.
          (hotlines--request conn 'hotlines/fileAnnotations
                             (list :textDocument (list :uri (hotlines--doc-uri)))
                             answer (lambda (_err) (funcall answer nil))))))))

(defun hotlines--refresh-all (conn &optional done)
  "Redraw every buffer of CONN; then call DONE (when non-nil)."
  (let* ((bufs (cl-remove-if-not #'buffer-live-p (hotlines--buffers conn)))
         (pending (1+ (length bufs)))
         (one (lambda ()
                (cl-decf pending)
                (when (and done (zerop pending)) (funcall done)))))
    (dolist (buf bufs)
      (with-current-buffer buf (hotlines-refresh one)))
    (funcall one)))

(defun hotlines--schedule-refresh ()
  "Refresh the buffer once edits pause for `hotlines-refresh-delay'."
  (when hotlines--timer (cancel-timer hotlines--timer))
  (let ((buf (current-buffer)))
    (setq hotlines--timer
          (run-with-timer hotlines-refresh-delay nil
                          (lambda ()
                            (when (buffer-live-p buf)
                              (with-current-buffer buf
                                (setq hotlines--timer nil)
                                (hotlines-refresh))))))))

;;;; Views

(defun hotlines--profile-file-p (file)
  "Whether FILE is a folder or ends like a profile."
  (or (file-directory-p file)
      (cl-some (lambda (ext) (string-suffix-p ext file)) hotlines-profile-extensions)))

(defun hotlines--read-profile (prompt)
  "Read a profile file name with PROMPT, completing folders and profiles."
  (let ((conn (hotlines--current-connection)))
    (read-file-name prompt (file-name-as-directory (hotlines--root conn))
                    nil nil nil #'hotlines--profile-file-p)))

(defun hotlines--failed (what done)
  "An error handler reporting WHAT and calling DONE with the error."
  (lambda (err)
    (message "hotlines: %s: %s" what (hotlines--error-message err))
    (when done (funcall done err))))

(defun hotlines--view-command (command arg what done)
  "Run COMMAND with ARG (reported as WHAT), redraw, then call DONE with nil."
  (let ((conn (hotlines--current-connection)))
    (hotlines--command conn command arg
                       (lambda (_)
                         (hotlines--refresh-all conn (lambda () (when done (funcall done nil)))))
                       (hotlines--failed what done))))

(defun hotlines-load-profile (file &optional done)
  "Load the profile FILE and redraw the heat.
DONE, when non-nil, is called with the error (nil on success) and
the profile summary once the heat is redrawn."
  (interactive (list (hotlines--read-profile "Load profile: ")))
  (let ((conn (hotlines--current-connection))
        (path (expand-file-name file)))
    (hotlines--request
     conn 'hotlines/loadProfile (list :path path)
     (lambda (summary)
       (setf (alist-get conn hotlines--last-profile) summary)
       (message "hotlines: %s loaded (%s, %d samples)" (hotlines--str summary :path)
                (hotlines--str summary :format) (hotlines--num summary :samples))
       (hotlines--refresh-all conn (lambda () (when done (funcall done nil summary)))))
     (hotlines--failed (format "cannot load %s" file) done))))

(defun hotlines--event-names ()
  "The events of the profile shown, an event's JFR types after it.
Only for an event fed by several types; a type's name shows only its
samples (`jdk.ThreadPark' of lock)."
  (let ((r (hotlines--request-sync (hotlines--current-connection) 'hotlines/events
                                   hotlines--empty)))
    (mapcan (lambda (e)
              (let ((sources (hotlines--seq e :sources)))
                (cons (hotlines--str e :name)
                      (when (cdr sources) (seq-filter #'stringp sources)))))
            (hotlines--seq r :events))))

(defun hotlines-select-event (event &optional done)
  "Show EVENT of the profile (cpu, wall, alloc, ...).
DONE, when non-nil, is called with the error or nil once redrawn."
  (interactive (list (completing-read "Event: " (hotlines--event-names) nil t)))
  (hotlines--view-command "hotlines.selectEvent" (list :event event)
                          (format "event %s" event) done))

(defun hotlines--thread-names ()
  "The thread names of the profile shown, heaviest first."
  (let ((r (hotlines--request-sync (hotlines--current-connection) 'hotlines/threads
                                   (list :grouped :json-false))))
    (mapcar (lambda (e) (hotlines--str e :name)) (hotlines--seq r :threads))))

(defun hotlines-select-threads (threads &optional done)
  "Show only THREADS (names, ids or patterns); an empty list: all.
DONE, when non-nil, is called with the error or nil once redrawn."
  (interactive (list (completing-read-multiple "Threads (empty: all): "
                                               (hotlines--thread-names))))
  (hotlines--view-command "hotlines.selectThreads" (list :threads (vconcat threads))
                          "threads"
                          (lambda (err)
                            (unless err
                              (message "hotlines: threads: %s"
                                       (if threads (string-join threads ", ") "all")))
                            (when done (funcall done err)))))

(defun hotlines-select-window (from to &optional done)
  "Show only samples between FROM and TO (\"2s\", \"500ms\", epoch ms).
An empty bound is open; both empty clear the window.  DONE, when
non-nil, is called with the error or nil once redrawn."
  (interactive (list (read-string "From (empty: the start): ")
                     (read-string "To (empty: the end): ")))
  (let (arg)
    (when (and to (not (string-empty-p to))) (setq arg (list :to to)))
    (when (and from (not (string-empty-p from))) (setq arg (append (list :from from) arg)))
    (hotlines--view-command "hotlines.setWindow" (or arg hotlines--empty) "window" done)))

(defun hotlines-select-baseline (file &optional done)
  "Diff the heat against the profile FILE; an empty FILE clears the baseline.
The profile shown stays the active one.  DONE, when non-nil, is
called with the error or nil once redrawn."
  (interactive (list (hotlines--read-profile "Baseline profile (empty: none): ")))
  (let* ((conn (hotlines--current-connection))
         (set (lambda (arg)
                (hotlines--view-command "hotlines.setBaseline" arg "baseline" done))))
    (if (or (null file) (string-empty-p file) (file-directory-p file))
        (funcall set hotlines--empty)
      (let* ((profiles (hotlines--seq (hotlines--request-sync conn 'hotlines/profiles
                                                              hotlines--empty)
                                      :profiles))
             (shown (or (plist-get (alist-get conn hotlines--last-profile) :path)
                        (plist-get (car (last profiles)) :path))))
        (hotlines--request
         conn 'hotlines/loadProfile (list :path (expand-file-name file))
         (lambda (base)
           (if (or (null shown) (equal shown (plist-get base :path)))
               (funcall set (list :profileId (plist-get base :profileId)))
             ;; The server shows the profile loaded last: load the shown one again.
             (hotlines--request
              conn 'hotlines/loadProfile (list :path shown)
              (lambda (now)
                (setf (alist-get conn hotlines--last-profile) now)
                (funcall set (list :profileId (plist-get base :profileId))))
              (hotlines--failed (format "cannot reload %s" shown) done))))
         (hotlines--failed (format "cannot load %s" file) done))))))

(defun hotlines--show-document (params)
  "Answer window/showDocument PARAMS: pages to the browser, sources here."
  (let ((uri (hotlines--str params :uri)))
    (if (eq (plist-get params :external) t)
        (progn (browse-url uri) (list :success t))
      (let ((file (hotlines--file uri)))
        (if (not (and file (file-readable-p file)))
            (list :success :json-false)
          (let ((buf (find-file-noselect file)))
            (pop-to-buffer-same-window buf)
            (let ((start (plist-get (plist-get params :selection) :start)))
              (when start
                (goto-char (point-min))
                (forward-line (hotlines--num start :line))))
            (unless hotlines-mode (hotlines-mode 1))
            (list :success t)))))))

(defun hotlines-flame-graph (&optional done)
  "Open the flame graph of the profile shown in the browser.
A double-click on a frame there opens its source here.  DONE, when
non-nil, is called with the error (nil on success) and the page's URL."
  (interactive)
  (hotlines--request (hotlines--current-connection) 'hotlines/openView hotlines--empty
                     (lambda (r)
                       (let ((url (hotlines--str r :url)))
                         ;; showDocument false: the server did not ask us to open it.
                         (unless (eq (plist-get r :showDocument) t) (browse-url url))
                         (message "hotlines: flame graph at %s" url)
                         (when done (funcall done nil url))))
                     (hotlines--failed "flame graph" done)))

;;;; Lists

(defun hotlines--all (conn method params-list done)
  "Send METHOD with each of PARAMS-LIST on CONN; DONE gets the results in order.
A failed request gives nil."
  (let* ((n (length params-list))
         (results (make-vector n nil))
         (pending n))
    (if (zerop n)
        (funcall done nil)
      (cl-loop for params in params-list for i from 0
               do (let ((i i))
                    (hotlines--request conn method params
                                       (lambda (r)
                                         (aset results i r)
                                         (when (zerop (cl-decf pending))
                                           (funcall done (append results nil))))
                                       (lambda (_)
                                         (when (zerop (cl-decf pending))
                                           (funcall done (append results nil))))))))))

(defun hotlines--located-methods (conn limit done)
  "The LIMIT hottest methods on CONN with their sources.
DONE gets the error (or nil), the hotMethods answer and a list of
\(METHOD FILE LINE), FILE nil for methods without workspace source."
  (hotlines--request
   conn 'hotlines/hotMethods (list :limit limit)
   (lambda (hot)
     (let ((methods (hotlines--seq hot :methods)))
       (hotlines--all conn 'hotlines/resolveFrame
                      (mapcar (lambda (m) (list :function (hotlines--str m :name))) methods)
                      (lambda (frames)
                        (funcall done nil hot
                                 (cl-mapcar
                                  (lambda (m f)
                                    (let ((loc (plist-get f :location)))
                                      (if (and loc (equal (plist-get f :status) "resolved"))
                                          (list m (hotlines--file (plist-get loc :uri))
                                                (1+ (hotlines--num
                                                     (plist-get (plist-get loc :range) :start)
                                                     :line)))
                                        (list m nil nil))))
                                  methods frames))))))
   (lambda (err) (funcall done err nil nil))))

(defvar-local hotlines--list-connection nil
  "The server whose answer this list shows.")

(defvar hotlines-list-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'hotlines-list-visit)
    map)
  "Keymap of `hotlines-list-mode'.")

(define-derived-mode hotlines-list-mode tabulated-list-mode "Hotlines"
  "A list of hot methods or lines; RET visits the entry's source."
  (setq tabulated-list-padding 1))

(defun hotlines-list-visit ()
  "Visit the source of the entry at point."
  (interactive)
  (let ((id (tabulated-list-get-id)))
    (if (not (car id))
        (message "hotlines: no workspace source for this entry")
      (find-file-other-window (car id))
      (goto-char (point-min))
      (forward-line (1- (cdr id)))
      (unless hotlines-mode (hotlines-mode 1)))))

(defun hotlines--show-list (name conn format entries)
  "Show ENTRIES in the list buffer NAME with columns FORMAT; return it.
CONN is the server whose answer it is."
  (let ((buf (get-buffer-create name)))
    (with-current-buffer buf
      (hotlines-list-mode)
      (setq hotlines--list-connection conn
            tabulated-list-format format
            tabulated-list-entries entries)
      (tabulated-list-init-header)
      (tabulated-list-print))
    (display-buffer buf)
    buf))

(defun hotlines--location-label (file line)
  "FILE:LINE relative to the list's root, or a dash."
  (if file (format "%s:%d" (file-name-nondirectory file) line) "-"))

(defun hotlines-hot-methods (&optional done)
  "List the hot methods by self share; RET jumps to the method.
DONE, when non-nil, is called with the error (or nil) and the buffer."
  (interactive)
  (let ((conn (hotlines--current-connection)))
    (hotlines--located-methods
     conn hotlines-hot-limit
     (lambda (err hot located)
       (if err
           (funcall (hotlines--failed "hot methods" done) err)
         (let* ((total (plist-get hot :total))
                (buf (hotlines--show-list
                      (format "*hotlines hot methods (%s)*" (hotlines--str hot :event))
                      conn
                      [("Self" 7 nil :right-align t) ("Total" 7 nil :right-align t)
                       ("Method" 60 nil) ("Source" 30 nil)]
                      (mapcar (lambda (l)
                                (let ((m (nth 0 l)))
                                  (list (cons (nth 1 l) (nth 2 l))
                                        (vector (hotlines--percent
                                                 (hotlines--share (plist-get m :self) total))
                                                (hotlines--percent
                                                 (hotlines--share (plist-get m :total) total))
                                                (hotlines--str m :name)
                                                (hotlines--location-label (nth 1 l) (nth 2 l))))))
                              located))))
           (when done (funcall done nil buf))))))))

(defun hotlines--function-at (functions line)
  "The name of the function of FUNCTIONS (fileAnnotations) holding LINE."
  (let (name)
    (dolist (f functions name)
      (when (<= (hotlines--num f :line) line) (setq name (hotlines--str f :name))))))

(defun hotlines--hot-line-rows (files answers)
  "The lines of ANSWERS (fileAnnotations of FILES) reaching the minimum share.
Each is (SELF-PERCENT FILE LINE ANSWER), hottest first."
  (let (rows)
    (cl-loop for a in answers for file in files when a
             do (dolist (l (hotlines--seq a :lines))
                  (let ((self (hotlines--share (plist-get l :self) (plist-get a :total))))
                    (when (>= self hotlines-min-percent)
                      (push (list self file l a) rows)))))
    (sort rows (lambda (x y)
                 (cond ((/= (car x) (car y)) (> (car x) (car y)))
                       ((not (string= (nth 1 x) (nth 1 y))) (string< (nth 1 x) (nth 1 y)))
                       (t (< (hotlines--num (nth 2 x) :line) (hotlines--num (nth 2 y) :line))))))))

(defun hotlines--hot-line-entry (row)
  "The list entry of ROW (see `hotlines--hot-line-rows')."
  (pcase-let* ((`(,self ,file ,l ,a) row)
               (line (hotlines--num l :line)))
    (list (cons file line)
          (vector (hotlines--percent self)
                  (hotlines--percent (hotlines--share (plist-get l :total) (plist-get a :total)))
                  (hotlines--location-label file line)
                  (or (hotlines--function-at (hotlines--seq a :functions) line) "")))))

(defun hotlines-hot-lines (&optional done)
  "List the hottest lines by self share of the files the hot methods are in.
DONE, when non-nil, is called with the error (or nil) and the buffer."
  (interactive)
  (let ((conn (hotlines--current-connection)))
    (hotlines--located-methods
     conn 200
     (lambda (err hot located)
       (if err
           (funcall (hotlines--failed "hot lines" done) err)
         (let ((files (delete-dups (delq nil (mapcar #'cadr located)))))
           (hotlines--all
            conn 'hotlines/fileAnnotations
            (mapcar (lambda (f) (list :textDocument (list :uri (hotlines--uri f)))) files)
            (lambda (answers)
              (let ((buf (hotlines--show-list
                          (format "*hotlines hot lines (%s)*" (hotlines--str hot :event))
                          conn
                          [("Self" 7 nil :right-align t) ("Total" 7 nil :right-align t)
                           ("Line" 30 nil) ("Function" 60 nil)]
                          (mapcar #'hotlines--hot-line-entry
                                  (seq-take (hotlines--hot-line-rows files answers)
                                            hotlines-hot-limit)))))
                (when done (funcall done nil buf)))))))))))

(defun hotlines--calls (method done)
  "Ask METHOD (callers or callees) about the line or function at point.
DONE gets the error (or nil), a title and a list of xref items."
  (let* ((conn (hotlines--current-connection))
         (line (line-number-at-pos nil t))
         (lines (hotlines--seq hotlines--result :lines))
         (params (list :maxDepth 2 :lines t))
         anchor)
    (if (cl-find line lines :key (lambda (l) (hotlines--num l :line)))
        (setq params (append (list :uri (hotlines--doc-uri) :line line) params)
              anchor (format "%s:%d" (file-name-nondirectory buffer-file-name) line))
      (setq anchor (hotlines--function-at (hotlines--seq hotlines--result :functions) line))
      (when anchor (setq params (append (list :function anchor) params))))
    (if (not anchor)
        (funcall done '(:message "nothing profiled at point") nil nil)
      (hotlines--request
       conn method params
       (lambda (tree)
         (let ((total (plist-get tree :total)) items)
           (dolist (n (hotlines--seq tree :nodes))
             (when (= (hotlines--num n :depth) 1)
               (let* ((nline (plist-get n :line))
                      (file (hotlines--file (plist-get n :uri)))
                      (summary (format "%s %s%s" (hotlines--percent
                                                  (hotlines--share (plist-get n :total) total))
                                       (hotlines--str n :name)
                                       (if (numberp nline) (format ":%d" nline) ""))))
                 (push (xref-make summary
                                  (if file
                                      (xref-make-file-location file (if (numberp nline) nline 1) 0)
                                    (xref-make-bogus-location "no workspace source")))
                       items))))
           (funcall done nil
                    (format "%s of %s (%s)" (if (eq method 'hotlines/callers) "callers" "callees")
                            anchor (hotlines--str tree :event))
                    (nreverse items))))
       (lambda (err) (funcall done err nil nil))))))

(defun hotlines--show-calls (method)
  "Show the answer of METHOD about point as an xref list."
  (hotlines--calls method
                   (lambda (err title items)
                     (cond (err (message "hotlines: %s" (hotlines--error-message err)))
                           ((null items) (message "hotlines: no %s" title))
                           (t (message "hotlines: %s" title)
                              (funcall xref-show-xrefs-function (lambda () items) nil))))))

(defun hotlines-callers ()
  "List the callers of the profiled line or method at point as xrefs."
  (interactive)
  (hotlines--show-calls 'hotlines/callers))

(defun hotlines-callees ()
  "List the callees of the profiled line or method at point as xrefs."
  (interactive)
  (hotlines--show-calls 'hotlines/callees))

(defun hotlines--wait (pred)
  "Process server messages until PRED is non-nil (at most the request timeout)."
  (let ((deadline (+ (float-time) hotlines-request-timeout)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))

(defun hotlines--hot-method-candidates ()
  "The hot methods with workspace source: (LABEL FILE LINE), hottest first."
  (let (result)
    (hotlines--located-methods
     (hotlines--current-connection) hotlines-hot-limit
     (lambda (err hot located)
       (setq result
             (if err (list 'error err)
               (cl-loop for (m file line) in located when file
                        collect (list (format "%-7s %s" (hotlines--percent
                                                         (hotlines--share (plist-get m :self)
                                                                          (plist-get hot :total)))
                                              (hotlines--str m :name))
                                      file line))))))
    (hotlines--wait (lambda () result))
    (when (eq (car result) 'error)
      (user-error "Hot methods failed: %s" (hotlines--error-message (cadr result))))
    result))

(defun hotlines-imenu ()
  "Jump to a hot method, chosen by name among the hottest (by self)."
  (interactive)
  (let* ((candidates (hotlines--hot-method-candidates))
         (table (lambda (string pred action)
                  (if (eq action 'metadata)
                      '(metadata (display-sort-function . identity))
                    (complete-with-action action (mapcar #'car candidates) string pred))))
         (choice (assoc (completing-read "Hot method: " table nil t) candidates)))
    (when choice
      (push-mark nil t)
      (find-file (nth 1 choice))
      (goto-char (point-min))
      (forward-line (1- (nth 2 choice)))
      (unless hotlines-mode (hotlines-mode 1)))))

;;;; Runs

(defvar hotlines--runs nil
  "The runs by (CONNECTION . RUN-ID).
Each is a plist of :id :test :buffer :params :finished.")
(defvar hotlines--last-run nil
  "The key in `hotlines--runs' of the run started last.")
(defvar-local hotlines--run-key nil
  "The key in `hotlines--runs' of this run buffer.")

(defvar hotlines-run-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-k") #'hotlines-cancel-run)
    (define-key map (kbd "g") #'hotlines-rerun)
    map)
  "Keymap of `hotlines-run-mode'.")

(define-derived-mode hotlines-run-mode compilation-mode "Hotlines-Run"
  "The output of a profiled run.  \\[hotlines-cancel-run] stops it.")

(defun hotlines--run (key)
  "The state of the run KEY."
  (cdr (assoc key hotlines--runs)))

(defun hotlines--run-buffer (conn id)
  "The output buffer of run ID of CONN, made on first use."
  (let ((key (cons conn id)))
    (or (plist-get (hotlines--run key) :buffer)
        (let ((buf (generate-new-buffer (format "*hotlines run %s*" id))))
          (with-current-buffer buf
            (hotlines-run-mode)
            (setq hotlines--run-key key))
          (push (cons key (list :id id :buffer buf)) hotlines--runs)
          buf))))

(defun hotlines--run-append (buf text)
  "Append TEXT to the run buffer BUF, following its end."
  (with-current-buffer buf
    (let ((inhibit-read-only t)
          (at-end (= (point) (point-max))))
      (save-excursion
        (goto-char (point-max))
        (insert text))
      (when at-end (goto-char (point-max)))
      (dolist (win (get-buffer-window-list buf nil t))
        (set-window-point win (point-max))))))

(defun hotlines--test-at (found line)
  "Find the innermost test of FOUND whose range has the 0-based LINE."
  (let (best best-size)
    (dolist (test found best)
      (let* ((range (plist-get test :range))
             (start (hotlines--num (plist-get range :start) :line))
             (end (hotlines--num (plist-get range :end) :line)))
        (when (and (<= start line end) (or (not best) (< (- end start) best-size)))
          (setq best test best-size (- end start)))))))

(defun hotlines--start-run (conn test params)
  "Start the run PARAMS of TEST (a name) on CONN; show its output buffer."
  (hotlines--request
   conn 'hotlines/run params
   (lambda (started)
     (let* ((id (hotlines--str started :runId))
            (buf (hotlines--run-buffer conn id))
            (key (cons conn id)))
       (setf (plist-get (cdr (assoc key hotlines--runs)) :test) test
             (plist-get (cdr (assoc key hotlines--runs)) :params) params
             hotlines--last-run key)
       (with-current-buffer buf
         (let ((cwd (plist-get params :cwd)))
           (when (and (stringp cwd) (file-directory-p cwd))
             (setq default-directory (file-name-as-directory cwd)))))
       (hotlines--run-append buf (format "# %s → %s\n" test (hotlines--str started :profilePath)))
       (display-buffer buf)
       (message "hotlines: profiling %s" test)))
   (lambda (err) (message "hotlines: cannot run %s: %s" test (hotlines--error-message err)))))

(defun hotlines-profile-test-at-point ()
  "Profile the JUnit or Go test at point; load its profile when it ends."
  (interactive)
  (let ((conn (hotlines--current-connection))
        (line (1- (line-number-at-pos nil t))))
    (hotlines--request
     conn 'hotlines/testsInFile (list :textDocument (list :uri (hotlines--doc-uri)))
     (lambda (found)
       (let ((test (hotlines--test-at (hotlines--seq found :tests) line)))
         (if (not test)
             (message "hotlines: no test at point")
           (let ((params (copy-sequence (plist-get test :run))))
             (when hotlines-run-env
               (let ((env (copy-sequence (plist-get params :env))))
                 (pcase-dolist (`(,k . ,v) hotlines-run-env)
                   (setq env (plist-put env (intern (concat ":" k)) v)))
                 (setq params (plist-put params :env env))))
             (when (> hotlines-run-timeout-ms 0)
               (setq params (plist-put params :timeoutMs hotlines-run-timeout-ms)))
             (hotlines--start-run conn (hotlines--str test :name) params))))))))

(defun hotlines-rerun ()
  "Run the run of this buffer again."
  (interactive)
  (let ((run (hotlines--run hotlines--run-key)))
    (unless run (user-error "Not a hotlines run buffer"))
    (hotlines--start-run (car hotlines--run-key) (plist-get run :test) (plist-get run :params))))

(defun hotlines-cancel-run ()
  "Stop the run of this buffer, else the run started last."
  (interactive)
  (let* ((key (or hotlines--run-key hotlines--last-run))
         (run (hotlines--run key)))
    (if (or (not run) (plist-get run :finished) (not (jsonrpc-running-p (car key))))
        (message "hotlines: no run in progress")
      (hotlines--request (car key) 'hotlines/cancelRun (list :runId (cdr key))
                         (lambda (r)
                           (message "hotlines: run %s %s" (cdr key)
                                    (if (eq (plist-get r :cancelled) t)
                                        "cancelled"
                                      "already ended")))))))

(defun hotlines--run-output (conn params)
  "Append the hotlines/runOutput PARAMS of CONN to the run's buffer."
  (hotlines--run-append (hotlines--run-buffer conn (hotlines--str params :runId))
                        (hotlines--str params :text)))

(defun hotlines--run-finished (conn params)
  "Report the hotlines/runFinished PARAMS of CONN and redraw the heat."
  (let* ((id (hotlines--str params :runId))
         (buf (hotlines--run-buffer conn id))
         (run (cdr (assoc (cons conn id) hotlines--runs)))
         (err (plist-get params :error))
         (msg (if err
                  (format "run %s failed (%s): %s" id (hotlines--str err :kind)
                          (hotlines--str err :message))
                (format "run %s finished (exit %s, %.1f s), profile %s loaded" id
                        (or (plist-get params :exitCode) (plist-get params :signal) "-")
                        (/ (hotlines--num params :durationMs) 1000.0)
                        (plist-get params :profileId)))))
    (setf (plist-get run :finished) params)
    (hotlines--run-append buf (format "\n# %s\n" msg))
    (message "hotlines: %s" msg)
    (hotlines--refresh-all conn (lambda ()
                                  (run-hook-with-args 'hotlines-run-finished-functions run)))))

(provide 'hotlines)
;;; hotlines.el ends here
