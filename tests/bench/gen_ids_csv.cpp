// Writes a large ids CSV for the streaming benchmark (bench_sc_stream.sh):
// `gen_ids_csv IDS FEATURES IDS_PER_SAMPLE VOCAB OUT.csv` writes IDS ids,
// sorted by sample, for features f0..f{FEATURES-1}, each sample looking up
// IDS_PER_SAMPLE ids per feature, drawn from a fixed-seed generator skewed
// towards low ids (the square of a uniform draw), so repeated ids occur.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

char* writeNumber(char* p, uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = tmp[--n];
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: gen_ids_csv IDS FEATURES IDS_PER_SAMPLE VOCAB OUT.csv\n");
    return 2;
  }
  const uint64_t total = std::strtoull(argv[1], nullptr, 10);
  const int features = std::atoi(argv[2]);
  const int perSample = std::atoi(argv[3]);
  const uint64_t vocab = std::strtoull(argv[4], nullptr, 10);
  std::FILE* out = std::fopen(argv[5], "wb");
  if (!out || features < 1 || perSample < 1 || vocab < 1) {
    std::fprintf(stderr, "gen_ids_csv: bad arguments or cannot open %s\n", argv[5]);
    return 1;
  }
  std::vector<char> buf(size_t{8} << 20);
  char* p = buf.data();
  char* limit = buf.data() + buf.size() - 256;
  uint64_t state = 0x9E3779B97F4A7C15ull;
  uint64_t written = 0;
  std::fputs("sample,feature,id\n", out);
  for (uint64_t sample = 0; written < total; ++sample)
    for (int f = 0; f < features && written < total; ++f)
      for (int k = 0; k < perSample && written < total; ++k, ++written) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const double u = static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
        const uint64_t id = static_cast<uint64_t>(u * u * static_cast<double>(vocab));
        p = writeNumber(p, sample);
        *p++ = ',';
        *p++ = 'f';
        p = writeNumber(p, static_cast<uint64_t>(f));
        *p++ = ',';
        p = writeNumber(p, id < vocab ? id : vocab - 1);
        *p++ = '\n';
        if (p > limit) {
          if (std::fwrite(buf.data(), 1, static_cast<size_t>(p - buf.data()), out) !=
              static_cast<size_t>(p - buf.data()))
            return 1;
          p = buf.data();
        }
      }
  if (std::fwrite(buf.data(), 1, static_cast<size_t>(p - buf.data()), out) !=
          static_cast<size_t>(p - buf.data()) ||
      std::fclose(out) != 0) {
    std::fprintf(stderr, "gen_ids_csv: write error\n");
    return 1;
  }
  return 0;
}
