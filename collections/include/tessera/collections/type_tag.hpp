#pragma once
/// The name under which a checkpoint records a collection's element type, and which a restart
/// checks: `T::checkpoint_tag` when the type declares one (keep it fixed across versions and
/// compilers, e.g. `static constexpr std::string_view checkpoint_tag = "pic.Color";`), else the
/// compiler's spelling of T (stable for one compiler, not across compilers).
#include <string>
#include <string_view>

namespace tessera::collections {

namespace detail {
template <class T>
std::string_view compiler_type_name() {
  // GCC and Clang: "... [with T = ns::Type; ...]" or "... [T = ns::Type]".
  const std::string_view function = __PRETTY_FUNCTION__;
  const std::size_t start = function.find("T = ");
  if (start == std::string_view::npos) return function;
  const std::string_view rest = function.substr(start + 4);
  return rest.substr(0, rest.find_first_of(";]"));
}
}  // namespace detail

template <class T>
std::string type_tag() {
  if constexpr (requires { T::checkpoint_tag; }) return std::string(T::checkpoint_tag);
  else return std::string(detail::compiler_type_name<T>());
}

}  // namespace tessera::collections
