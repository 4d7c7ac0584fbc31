// JVM name helpers shared by the JFR and collapsed readers: internal class names
// (`org/acme/shop/Pricing$Inner`) to display names (`org.acme.shop.Pricing$Inner.spin`), and
// normalisation of hidden/lambda classes so that runs compare
// (`Main$$Lambda$1.0x00007f4d30000c30` -> `Main$$Lambda`).
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

// Strips the per-run parts of hidden class names: `$$Lambda$14.0x...`, `$$Lambda/0x...`
// (JDK 21), `$$Lambda$14+0x...`, `$$Lambda.399573350`, `LambdaForm$MH.0x...`, and the JDK
// recorder's `+0x.../<hash>` suffix; `$Proxy12`-style numbering is kept.
std::string normalize_jvm_class(std::string_view internal_class);

// normalize_jvm_class in internal form: the JDK recorder writes hidden classes dotted
// (`org.acme.shop.Main$$Lambda+0x…`), which becomes `org/acme/shop/Main$$Lambda`, so that
// they share their file and class with the slashed names of the same classes.
std::string jvm_internal_class(std::string_view recorded_class);

// `org/acme/shop/Pricing$Inner` + `spin` -> `org.acme.shop.Pricing$Inner.spin` (normalised).
std::string jvm_display_name(std::string_view internal_class, std::string_view method);

// Splits a collapsed-stack Java frame `org/acme/shop/Pricing.discount` (also hidden classes
// with `.0x…` parts) into internal class and method. Returns false when the frame does not
// look like `class.method` with a slash-separated package.
bool split_jvm_frame(std::string_view frame, std::string_view *internal_class,
                     std::string_view *method);

// async-profiler's dotted frame names (its text output, `dot` style) in the slashed form its
// collapsed output writes: `org.acme.shop.Main$$Lambda$1.0x7f…c30.run` ->
// `org/acme/shop/Main$$Lambda$1.0x7f…c30.run` (a dot before a digit is part of a hidden class
// name and stays). Returns "" unless the frame is `package.Class.method` (or
// `Class.method`): Java identifiers, the class's simple name capitalised or with a `$`, so that
// native names such as `foo.cold` or `finish_task_switch.isra.0` are left alone.
std::string slashed_jvm_frame(std::string_view dotted);

} // namespace hotlines
