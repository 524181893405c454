// The buffer pool every network transport shares: batch-sized buffers come back by count, large
// ones best fit within a byte budget, and what the pool does not keep stays with the caller.
#include "buffer_pool.hpp"

#include <gtest/gtest.h>

namespace {

using tessera::Buffer;
using tessera::detail::BufferPool;

TEST(BufferPool, BatchBuffersAreReusedAndLargeOnesFitBest) {
  BufferPool pool(1024, 1 << 20);
  Buffer batch = pool.acquire(100);
  EXPECT_EQ(batch.capacity(), 1024u);
  const std::byte* data = batch.data();
  EXPECT_TRUE(pool.keep(batch));
  Buffer again = pool.acquire(1000);
  EXPECT_EQ(again.data(), data);  // the same memory, no allocation
  EXPECT_EQ(again.size(), 0u);

  Buffer big = pool.acquire(300000);
  Buffer bigger = pool.acquire(600000);
  const std::byte* big_data = big.data();
  EXPECT_TRUE(pool.keep(bigger));
  EXPECT_TRUE(pool.keep(big));
  EXPECT_EQ(pool.acquire(250000).data(), big_data);     // best fit: 300000, not 600000
  EXPECT_LT(pool.acquire(100000).capacity(), 600000u);  // 600000 is over twice the request: fresh
}

TEST(BufferPool, WhatItDoesNotKeepStaysWithTheCaller) {
  BufferPool pool(1024, 500000);
  Buffer big = pool.acquire(400000);
  Buffer second = pool.acquire(400000);
  EXPECT_TRUE(pool.keep(big));
  EXPECT_FALSE(pool.keep(second));  // over the 500000-byte budget
  EXPECT_EQ(second.capacity(), 400000u);
  Buffer odd(500);  // below the batch size: not kept
  EXPECT_FALSE(pool.keep(odd));
  int kept = 0;
  for (int i = 0; i < 100; ++i) {
    Buffer b(1024);
    kept += pool.keep(b) ? 1 : 0;
  }
  EXPECT_EQ(kept, 64);  // batch buffers kept by count
}

}  // namespace
