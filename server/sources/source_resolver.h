// SourceResolver: where the source of one profile function lives in the workspace. A function
// is first reduced to a SourceKey — the top-level JVM class (`org/acme/shop/Pricing$Inner` ->
// `org/acme/shop/Pricing`) or the recorded path (pprof, collapsed frames with paths) — and
// the key is matched against a WorkspaceIndex by ordered rules; every answer names the rule
// that made it (see kRule* below). Ties (several equally good files) come back as several
// candidates; ProfileResolution picks among them with the rest of the profile in view.
// Also scans files for `package` lines and declaration lines, with a per-file cache.
// Threading: const methods may be called from any number of threads (the scan cache is
// guarded by a mutex); the WorkspaceIndex it holds must not change meanwhile (it is shared
// as const).
#pragma once

#include "formats/profile.h"
#include "server/sources/source_path.h"
#include "server/sources/source_scan.h"
#include "server/sources/workspace_index.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

enum class ResolutionStatus : uint8_t {
  resolved,   // a workspace file (and line when known)
  external,   // library, JDK, toolchain or native code: no source expected in the workspace
  unresolved, // looks like workspace code, but no file matched: reported with its reason
};
std::string_view status_name(ResolutionStatus status);

// Rule names, as reported with every resolution.
inline constexpr std::string_view kRuleRemap = "remap";                // configured {from, to}
inline constexpr std::string_view kRuleExact = "exact-path";           // the recorded absolute path
inline constexpr std::string_view kRuleRootRelative = "root-relative"; // relative path under a root
inline constexpr std::string_view kRuleGoModule = "go-module";         // go.mod `module` + rest
inline constexpr std::string_view kRulePathSuffix = "path-suffix"; // longest trailing components
inline constexpr std::string_view kRuleInferredPrefix = "inferred-prefix";  // prefix learned from
                                                                            // other frames
inline constexpr std::string_view kRuleKotlinJvmName = "kotlin-jvm-name";   // @file:JvmName
inline constexpr std::string_view kRuleJvmClass = "jvm-class-path";         // <pkg>/<Outer>.<ext>
inline constexpr std::string_view kRuleKotlinFacade = "kotlin-file-facade"; // FooKt -> Foo.kt
inline constexpr std::string_view kRuleJvmPackageLine = "jvm-package-line"; // basename + package
inline constexpr std::string_view kRuleJvmDeclaration = "jvm-declaration";  // class declared in a
                                                                            // file of its package
inline constexpr std::string_view kRuleJvmLibrary = "jvm-library";          // JDK/library class
inline constexpr std::string_view kRuleExternalPath = "external-path";      // toolchain/system path
inline constexpr std::string_view kRuleNoSource = "no-source"; // native/kernel/no file or class
inline constexpr std::string_view kRuleUnmatchedPath = "unmatched-path";
inline constexpr std::string_view kRuleUnmatchedClass = "unmatched-class";

struct SourceKey {
  enum class Kind : uint8_t { none, jvm_class, path };
  Kind kind = Kind::none;
  std::string text;       // top-level internal class name, or the recorded path
  std::string go_package; // Go import path of the function (`example.com/gows/internal/shop`)
                          // when the path is a .go file, else ""

  // One string identifying the key (for deduplication).
  std::string id() const;
};

// The SourceKey of a function: the recorded file when there is one; else the JVM class
// (class_name, or a `pkg/Class.method` name as jfrconv's pprof output writes them); else none.
SourceKey source_key(const Profile &profile, const Function &f);

// The JVM internal class name of a function (class_name, or split from its name), or "".
std::string jvm_class_of(const Profile &profile, const Function &f, std::string *method);

struct SourceMatch {
  ResolutionStatus status = ResolutionStatus::unresolved;
  std::string_view rule;
  std::vector<std::string> candidates; // resolved: the matching files, sorted; > 1 is a tie
  std::string reason;                  // why external/unresolved (empty when resolved)
  size_t matched_components = 0;       // path-suffix: trailing components that matched
  bool package_unknown = false;        // JVM: external only because no root has the package
};

struct ResolverOptions {
  std::vector<PathRemap> remaps; // tried first, in order
  // JVM packages (internal form, `java/`, `org/junit/`) that are library code when no root
  // has them. Classes of packages no root has are external too; these only name the reason.
  std::vector<std::string> library_packages = {"java/",
                                               "javax/",
                                               "jdk/",
                                               "sun/",
                                               "com/sun/",
                                               "kotlin/",
                                               "kotlinx/",
                                               "scala/",
                                               "groovy/",
                                               "org/codehaus/groovy/",
                                               "org/junit/",
                                               "junit/",
                                               "org/apache/maven/"};
};

class SourceResolver {
public:
  SourceResolver(std::shared_ptr<const WorkspaceIndex> index, ResolverOptions options);

  const WorkspaceIndex &index() const { return *index_; }
  const std::shared_ptr<const WorkspaceIndex> &shared_index() const { return index_; }
  const ResolverOptions &options() const { return options_; }

  SourceMatch resolve(const SourceKey &key) const;
  // A top-level internal class name (`org/acme/shop/Pricing`; nested parts are cut).
  SourceMatch resolve_class(std::string_view internal_class) const;
  // A recorded path; `go_package` helps for Go functions whose path matches nothing.
  SourceMatch resolve_path(std::string_view recorded, std::string_view go_package = {}) const;

  // The scan of a file, read once and cached.
  std::shared_ptr<const SourceScan> scan(const std::string &path) const;

private:
  bool exists(const std::string &path) const;
  SourceMatch from_candidates(std::vector<std::string> files, std::string_view rule) const;

  std::shared_ptr<const WorkspaceIndex> index_;
  ResolverOptions options_;
  mutable std::mutex scan_mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<const SourceScan>> scans_;
};

} // namespace hotlines
