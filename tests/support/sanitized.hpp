// Whether this build runs under AddressSanitizer (tools/dev test's second stage). A test leaves out only
// a size of a case whose smaller sizes it still runs there, and which the optimised stage runs whole:
// the sanitizers look for memory and undefined-behaviour errors, which the smaller sizes reach through
// the same code.
#pragma once

namespace fabric_tests {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

}  // namespace fabric_tests
