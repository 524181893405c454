#include "tessera/uts/rng.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace tessera::uts {
namespace {

std::vector<std::uint8_t> bytes(std::string_view text) { return {text.begin(), text.end()}; }

TEST(Sha1, BothBackendsGiveTheStandardDigest) {
  // FIPS 180-1, appendix A: SHA-1("abc").
  const Sha1Digest expected{0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
                            0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
  Sha1Hasher evp(Sha1Backend::evp);
  EXPECT_EQ(evp.digest(bytes("abc")), expected);
  ASSERT_TRUE(sha1_direct_available());
  Sha1Hasher direct(Sha1Backend::direct);
  EXPECT_EQ(direct.digest(bytes("abc")), expected);
}

TEST(SplittableRng, RootIsTheDigestOfSixteenZerosAndTheBigEndianSeed) {
  Sha1Hasher hasher(Sha1Backend::evp);
  std::array<std::uint8_t, 20> message{};
  message[16] = 0x01;
  message[17] = 0x02;
  message[18] = 0x03;
  message[19] = 0x04;
  SplittableRng rng;
  EXPECT_EQ(rng.root(0x01020304), hasher.digest(message));
}

TEST(SplittableRng, ChildIsTheDigestOfTheParentAndTheBigEndianIndex) {
  SplittableRng rng;
  const RngState parent = rng.root(19);
  std::array<std::uint8_t, 24> message{};
  std::copy(parent.begin(), parent.end(), message.begin());
  message[20] = 0x00;
  message[21] = 0x00;
  message[22] = 0x01;
  message[23] = 0x2c;  // 300
  Sha1Hasher hasher(Sha1Backend::evp);
  EXPECT_EQ(rng.spawn(parent, 300), hasher.digest(message));
  EXPECT_NE(rng.spawn(parent, 0), rng.spawn(parent, 1));
  // Splittable: the same parent and index give the same child wherever it is computed.
  SplittableRng other(Sha1Backend::evp);
  EXPECT_EQ(other.spawn(other.root(19), 300), rng.spawn(parent, 300));
}

TEST(SplittableRng, ValueIsTheLastFourBytesBigEndianMaskedTo31Bits) {
  RngState state{};
  state[16] = 0xff;
  state[17] = 0x12;
  state[18] = 0x34;
  state[19] = 0x56;
  EXPECT_EQ(rng_value(state), 0x7f123456);
  state[16] = 0x40;
  state[17] = 0x00;
  state[18] = 0x00;
  state[19] = 0x00;
  EXPECT_EQ(rng_value(state), 0x40000000);
  EXPECT_EQ(rng_probability(0x40000000), 0.5);
  EXPECT_EQ(rng_probability(0), 0.0);
  EXPECT_LT(rng_probability(0x7fffffff), 1.0);
}

}  // namespace
}  // namespace tessera::uts
