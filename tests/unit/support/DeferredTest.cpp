// A Deferred value: kept as the bytes it was encoded as by a deferring
// decoder, decoded on its first read (once, from any number of threads),
// and the same value to everything that copies, moves or encodes it.
#include "core/support/BinaryCodec.h"
#include "core/support/Deferred.h"

#include <gtest/gtest.h>

#include <thread>

using namespace cudadeps;

namespace {

using Names = std::vector<std::string>;

struct Holder {
  std::string Before;
  Deferred<Names> Value;
  uint64_t After = 0;
};
template <class C> void fields(C &Cd, Holder &H) {
  Cd(H.Before, H.Value, H.After);
}

std::shared_ptr<const std::string> encoded(Names N) {
  Holder H{"before", Deferred<Names>(std::move(N)), 7};
  BinaryEncoder E("f.toml");
  E(H);
  return std::make_shared<const std::string>(E.take());
}

Holder decodeDeferring(std::shared_ptr<const std::string> Bytes) {
  BinaryDecoder D = BinaryDecoder::deferring(std::move(Bytes), "f.toml", "");
  Holder H;
  D(H);
  EXPECT_TRUE(D.ok());
  return H;
}

TEST(Deferred, ADeferringDecoderKeepsTheBytesUntilTheFirstRead) {
  std::shared_ptr<const std::string> Bytes = encoded({"a", "bb", "ccc"});
  Holder H = decodeDeferring(Bytes);
  EXPECT_EQ(H.Before, "before");
  EXPECT_EQ(H.After, 7u); // the fields after it decoded too
  EXPECT_TRUE(H.Value.isEncoded());
  EXPECT_EQ(H.Value.size(), 3u);
  EXPECT_FALSE(H.Value.isEncoded());
  EXPECT_EQ(H.Value.get(), (Names{"a", "bb", "ccc"}));

  // Any other decoder decodes it at once, to the same value.
  BinaryDecoder D(*Bytes, "f.toml");
  Holder Now;
  D(Now);
  ASSERT_TRUE(D.ok());
  EXPECT_FALSE(Now.Value.isEncoded());
  EXPECT_EQ(Now.Value.get(), H.Value.get());
}

TEST(Deferred, OneByteIsDecodedAtOnce) {
  // An empty value (one byte) costs less to decode than to keep.
  Holder H = decodeDeferring(encoded({}));
  EXPECT_FALSE(H.Value.isEncoded());
  EXPECT_TRUE(H.Value.get().empty());
  EXPECT_EQ(H.After, 7u);
}

TEST(Deferred, CopiesMovesAndEncodingSeeTheValue) {
  std::shared_ptr<const std::string> Bytes = encoded({"x", "y"});
  Holder H = decodeDeferring(Bytes);
  Deferred<Names> Copy = H.Value; // decodes the original to copy it
  EXPECT_FALSE(H.Value.isEncoded());
  EXPECT_EQ(Copy.get(), (Names{"x", "y"}));

  Holder K = decodeDeferring(Bytes);
  Deferred<Names> Moved = std::move(K.Value); // still bytes: moved as such
  EXPECT_TRUE(Moved.isEncoded());
  EXPECT_EQ(Moved.get(), (Names{"x", "y"}));

  Holder L = decodeDeferring(Bytes);
  Deferred<Names> Assigned(Names{"old"});
  Assigned = L.Value;
  EXPECT_EQ(Assigned.get(), (Names{"x", "y"}));
  Holder M = decodeDeferring(Bytes);
  M.Value = Names{"replaced"}; // the kept bytes are dropped
  EXPECT_FALSE(M.Value.isEncoded());
  EXPECT_EQ(M.Value.get(), (Names{"replaced"}));

  // Encoding a value still kept as bytes writes the same bytes.
  Holder N = decodeDeferring(Bytes);
  BinaryEncoder E("f.toml");
  E(N);
  EXPECT_EQ(E.take(), *Bytes);
}

TEST(Deferred, ThreadsReadingAtOnceDecodeOnce) {
  Names Many;
  for (int I = 0; I < 1000; ++I)
    Many.push_back("name-" + std::to_string(I));
  Holder H = decodeDeferring(encoded(Many));
  std::vector<const Names *> Seen(4);
  std::vector<std::thread> Threads;
  for (size_t T = 0; T < Seen.size(); ++T)
    Threads.emplace_back([&, T] { Seen[T] = &H.Value.get(); });
  for (std::thread &T : Threads)
    T.join();
  for (const Names *S : Seen) {
    EXPECT_EQ(S, &H.Value.get());
    EXPECT_EQ(*S, Many);
  }
}

} // namespace
