#pragma once
// Brotli compression for LB data files (internal to tessera_lb).

#include <optional>
#include <string>
#include <string_view>

namespace tessera::lb::detail {

// The decompressed bytes, or nullopt when `input` is not a complete brotli stream.
std::optional<std::string> brotli_decompress(std::string_view input);

std::string brotli_compress(std::string_view input);

}  // namespace tessera::lb::detail
