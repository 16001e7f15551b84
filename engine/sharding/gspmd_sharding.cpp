#include "sharding/gspmd_sharding.h"

#include <cctype>
#include <charconv>
#include <algorithm>
#include <numeric>

namespace shardscope {

size_t GspmdSharding::dataRank() const {
  size_t trailing = lastTileDims.size() + (lastTileDimReplicate ? 1 : 0);
  return tileDims.size() >= trailing ? tileDims.size() - trailing : 0;
}

int64_t GspmdSharding::deviceCount() const {
  int64_t n = 1;
  for (int64_t d : tileDims) {
    if (d > 0 && n > INT64_MAX / d) return INT64_MAX;
    n *= d;
  }
  return n;
}

std::vector<int64_t> stridedEnumeration(const std::vector<int64_t>& shape,
                                        const std::vector<int64_t>& strides) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> out(static_cast<size_t>(n));
  std::vector<int64_t> index(shape.size(), 0);
  int64_t value = 0;
  for (int64_t k = 0; k < n; ++k) {
    out[static_cast<size_t>(k)] = value;
    // Odometer: the last index moves fastest.
    for (size_t i = shape.size(); i-- > 0;) {
      if (++index[i] < shape[i]) {
        value += strides[i];
        break;
      }
      value -= strides[i] * (shape[i] - 1);
      index[i] = 0;
    }
  }
  return out;
}

std::vector<int64_t> GspmdSharding::deviceList(int64_t limit) const {
  const int64_t n = deviceCount();
  if (n > limit || n < 1) return {};
  if (!devices.empty()) return devices;
  // Iota over `iotaReshape`, transposed by `iotaPerm`, read row-major.
  const size_t rank = iotaReshape.size();
  std::vector<int64_t> strides(rank, 1);
  for (size_t i = rank; i-- > 1;) strides[i - 1] = strides[i] * iotaReshape[i];
  std::vector<int64_t> shape(rank), stride(rank);
  for (size_t i = 0; i < rank; ++i) {
    const size_t from = iotaPerm.empty() ? i : static_cast<size_t>(iotaPerm[i]);
    shape[i] = iotaReshape[from];
    stride[i] = strides[from];
  }
  return stridedEnumeration(shape, stride);
}

namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string& error, size_t* offset)
      : s_(text), error_(error), offset_(offset) {}

  std::optional<GspmdSharding> parseTop() {
    auto result = parseSharding();
    if (!result) return std::nullopt;
    skipSpace();
    if (pos_ != s_.size()) return fail("unexpected text after the sharding");
    return result;
  }

 private:
  std::optional<GspmdSharding> fail(const std::string& cause) {
    if (error_.empty()) {
      error_ = cause;
      if (offset_) *offset_ = pos_;
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool eatWord(std::string_view w) {
    skipSpace();
    if (s_.substr(pos_, w.size()) != w) return false;
    const size_t end = pos_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
      return false;
    pos_ = end;
    return true;
  }
  bool integer(int64_t& v) {
    skipSpace();
    auto r = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
    if (r.ec != std::errc() || v < 0) return false;
    pos_ = static_cast<size_t>(r.ptr - s_.data());
    return true;
  }
  // `[a,b,...]` of non-negative integers.
  bool intList(std::vector<int64_t>& out, char open, char close) {
    if (!eat(open)) return false;
    if (eat(close)) return true;
    do {
      int64_t v = 0;
      if (!integer(v)) return false;
      out.push_back(v);
    } while (eat(','));
    return eat(close);
  }
  // Skips a balanced `{...}` (with quoted strings) after `metadata=`.
  bool skipBalanced() {
    skipSpace();
    if (pos_ >= s_.size() || s_[pos_] != '{') return false;
    int depth = 0;
    bool quoted = false;
    for (; pos_ < s_.size(); ++pos_) {
      const char c = s_[pos_];
      if (quoted) {
        if (c == '\\') ++pos_;
        else if (c == '"') quoted = false;
        continue;
      }
      if (c == '"') quoted = true;
      else if (c == '{') ++depth;
      else if (c == '}' && --depth == 0) {
        ++pos_;
        return true;
      }
    }
    return false;
  }

  std::optional<GspmdSharding> parseSharding() {
    if (!eat('{')) return fail("expected '{'");
    GspmdSharding out;
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == '{') {
      out.kind = GspmdSharding::Kind::Tuple;
      do {
        auto element = parseSharding();
        if (!element) return std::nullopt;
        out.elements.push_back(std::move(*element));
      } while (eat(','));
      if (!eat('}')) return fail("expected '}' after the tuple's elements");
      return out;
    }
    if (eat('}')) {  // `{}`: an empty tuple
      out.kind = GspmdSharding::Kind::Tuple;
      return out;
    }
    bool kindSeen = false;
    while (!eat('}')) {
      if (pos_ >= s_.size()) return fail("expected '}'");
      if (eatWord("replicated")) {
        out.kind = GspmdSharding::Kind::Replicated;
      } else if (eatWord("manual")) {
        out.kind = GspmdSharding::Kind::Manual;
      } else if (eatWord("unknown")) {
        out.kind = GspmdSharding::Kind::Unknown;
      } else if (eatWord("maximal")) {
        out.kind = GspmdSharding::Kind::Maximal;
        if (!eatWord("device") || !eat('=') || !integer(out.device))
          return fail("expected 'device=N' after 'maximal'");
      } else if (eatWord("devices")) {
        out.kind = GspmdSharding::Kind::Tiled;
        if (!eat('=') || !intList(out.tileDims, '[', ']'))
          return fail("expected 'devices=[d0,d1,...]'");
        if (out.tileDims.empty()) return fail("a tile assignment needs at least one dimension");
        for (int64_t d : out.tileDims)
          if (d < 1) return fail("tile dimensions must be positive");
        if (eat('<')) {
          if (!eat('=') || !intList(out.iotaReshape, '[', ']'))
            return fail("expected '<=[n0,n1,...]' (an iota tile assignment)");
          skipSpace();
          if (pos_ < s_.size() && s_[pos_] == 'T') {
            ++pos_;
            if (!intList(out.iotaPerm, '(', ')')) return fail("expected 'T(p0,p1,...)'");
          }
        } else {
          int64_t v = 0;
          while (integer(v)) {
            out.devices.push_back(v);
            if (!eat(',')) break;
          }
        }
      } else if (eatWord("last_tile_dim_replicate")) {
        out.lastTileDimReplicate = true;
      } else if (eatWord("last_tile_dims")) {
        if (!eat('=') || !eat('{')) return fail("expected 'last_tile_dims={...}'");
        do {
          if (eatWord("replicated")) out.lastTileDims.push_back(GspmdSharding::Subgroup::Replicated);
          else if (eatWord("manual")) out.lastTileDims.push_back(GspmdSharding::Subgroup::Manual);
          else if (eatWord("unreduced")) out.lastTileDims.push_back(GspmdSharding::Subgroup::Unreduced);
          else return fail("expected 'replicated', 'manual' or 'unreduced' in last_tile_dims");
        } while (eat(','));
        if (!eat('}')) return fail("expected '}' after last_tile_dims");
      } else if (eatWord("metadata")) {
        if (!eat('=') || !skipBalanced()) return fail("expected 'metadata={...}'");
        continue;
      } else {
        return fail("unknown word in a GSPMD sharding");
      }
      kindSeen = true;
    }
    if (!kindSeen) return fail("a sharding needs 'replicated', 'maximal', 'devices=' ...");
    if (out.kind == GspmdSharding::Kind::Tiled) {
      if (const std::string why = checkTiled(out); !why.empty()) return fail(why);
    }
    return out;
  }

  static std::string checkTiled(const GspmdSharding& t) {
    const int64_t n = t.deviceCount();
    if (n == INT64_MAX) return "the tile assignment has too many devices";
    const size_t trailing = t.lastTileDims.size() + (t.lastTileDimReplicate ? 1 : 0);
    if (trailing > t.tileDims.size())
      return "more trailing subgroup dimensions than tile dimensions";
    if (!t.iotaReshape.empty()) {
      int64_t m = 1;
      for (int64_t d : t.iotaReshape) {
        if (d < 1 || m > INT64_MAX / d) return "bad iota shape";
        m *= d;
      }
      if (m != n)
        return "the iota has " + std::to_string(m) + " devices but the tiles " + std::to_string(n);
      if (!t.iotaPerm.empty()) {
        if (t.iotaPerm.size() != t.iotaReshape.size())
          return "the transpose must list each of the iota's " +
                 std::to_string(t.iotaReshape.size()) + " dimensions";
        std::vector<int64_t> sorted = t.iotaPerm;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); ++i)
          if (sorted[i] != static_cast<int64_t>(i)) return "the transpose is not a permutation";
      }
    } else if (static_cast<int64_t>(t.devices.size()) != n) {
      return "the tile assignment lists " + std::to_string(t.devices.size()) + " devices for " +
             std::to_string(n) + " tiles";
    }
    return "";
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string& error_;
  size_t* offset_;
};

}  // namespace

std::optional<GspmdSharding> parseGspmdSharding(std::string_view text, std::string& error,
                                                size_t* errorOffset) {
  error.clear();
  return Parser(text, error, errorOffset).parseTop();
}

}  // namespace shardscope
