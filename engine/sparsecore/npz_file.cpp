#include "sparsecore/npz_file.h"

#include <zip.h>

#include <memory>

#include "sparsecore/errors.h"

namespace shardscope::sc {

namespace {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

std::string zipErrorText(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

}  // namespace

std::vector<NpzEntry> readNpzFile(const std::string& path, size_t maxEntryBytes) {
  int code = 0;
  std::unique_ptr<zip_t, ZipCloser> archive(zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code));
  if (!archive) {
    if (code == ZIP_ER_NOENT || code == ZIP_ER_OPEN) throw InputError(path + ": cannot open file");
    throw InputError(path + ": not a readable .npz (zip) file: " + zipErrorText(code));
  }
  std::vector<NpzEntry> out;
  zip_int64_t n = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
      throw InputError(path + ": entry " + std::to_string(i) + ": " + zip_strerror(archive.get()));
    std::string name = st.name;
    const std::string where = path + ": entry '" + name + "'";
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".npy") != 0)
      throw InputError(where + ": not a .npy array (an .npz holds only .npy entries)");
    if (!(st.valid & ZIP_STAT_SIZE)) throw InputError(where + ": size unknown");
    if (st.size > maxEntryBytes)
      throw InputError(where + ": " + std::to_string(st.size) + " bytes, more than the " +
                       std::to_string(maxEntryBytes) + " a statistics entry may have");
    std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen_index(archive.get(), static_cast<zip_uint64_t>(i), 0));
    if (!file) throw InputError(where + ": " + zip_strerror(archive.get()));
    std::string bytes(static_cast<size_t>(st.size), '\0');
    size_t got = 0;
    while (got < bytes.size()) {
      zip_int64_t r = zip_fread(file.get(), bytes.data() + got, bytes.size() - got);
      if (r < 0) throw InputError(where + ": cannot read: " + zip_file_strerror(file.get()));
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    if (got != bytes.size()) throw InputError(where + ": truncated (" + std::to_string(got) + " of " +
                                              std::to_string(bytes.size()) + " bytes)");
    out.push_back({name.substr(0, name.size() - 4), parseNpy(bytes, where)});
  }
  return out;
}

}  // namespace shardscope::sc
