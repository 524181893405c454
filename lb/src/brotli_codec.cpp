#include "brotli_codec.hpp"

#include <brotli/decode.h>
#include <brotli/encode.h>

#include <memory>
#include <stdexcept>

namespace tessera::lb::detail {

std::optional<std::string> brotli_decompress(std::string_view input) {
  std::unique_ptr<BrotliDecoderState, decltype(&BrotliDecoderDestroyInstance)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), &BrotliDecoderDestroyInstance);
  if (!state) throw std::bad_alloc();
  std::string out;
  const auto* next_in = reinterpret_cast<const uint8_t*>(input.data());
  std::size_t available_in = input.size();
  char buffer[1 << 16];
  for (;;) {
    auto* next_out = reinterpret_cast<uint8_t*>(buffer);
    std::size_t available_out = sizeof(buffer);
    const BrotliDecoderResult result = BrotliDecoderDecompressStream(
        state.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
    out.append(buffer, sizeof(buffer) - available_out);
    if (result == BROTLI_DECODER_RESULT_SUCCESS) {
      return available_in == 0 ? std::optional<std::string>(std::move(out)) : std::nullopt;
    }
    if (result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) return std::nullopt;
  }
}

// Quality 11 (the library default) takes seconds on a 10 MB phase dump; 5 is within a few percent
// of its size at a small fraction of the time.
constexpr int compression_quality = 5;

std::string brotli_compress(std::string_view input) {
  std::string out(BrotliEncoderMaxCompressedSize(input.size()), '\0');
  std::size_t size = out.size();
  if (!BrotliEncoderCompress(compression_quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                             input.size(), reinterpret_cast<const uint8_t*>(input.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data()))) {
    throw std::runtime_error("brotli compression failed");
  }
  out.resize(size);
  return out;
}

}  // namespace tessera::lb::detail
