#pragma once
/// Strategy arguments (`--tessera_lb_args`, lbsim's `--args`): Tessera's one `key=value` parser
/// (tessera/keys.hpp), under the names the strategies have always used.
#include <tessera/keys.hpp>

namespace tessera::lb {

using tessera::ArgumentError;
using tessera::Args;
using tessera::boolean_key;
using tessera::choice_key;
using tessera::describe_keys;
using tessera::integer_key;
using tessera::KeySpec;
using tessera::parse_args;
using tessera::real_key;
using tessera::text_key;

}  // namespace tessera::lb
