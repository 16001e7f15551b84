#include "sparsecore/job_io.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "sparsecore/csv_ids.h"
#include "io/input_file.h"
#include "sparsecore/errors.h"
#include "sparsecore/id_generator.h"

namespace shardscope::sc {

using nlohmann::json;

std::string readTextFile(const std::string& path) {
  std::string text, error;
  if (!io::readInputFile(path, io::kDefaultMaxInputBytes, text, error)) throw InputError(error);
  return text;
}

namespace {

// "source:LINE:COLUMN" of byte offset `byte` of `text` (1-based).
std::string positionIn(std::string_view text, size_t byte, const std::string& source) {
  if (byte > text.size()) byte = text.size();
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return source + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

json parseJsonText(std::string_view text, const std::string& source) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    size_t at = what.find("parse error");
    size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    std::string cause = colon == std::string::npos ? what : what.substr(colon + 2);
    throw InputError(positionIn(text, e.byte > 0 ? e.byte - 1 : 0, source) +
                     ": JSON parse error: " + cause);
  } catch (const json::out_of_range& e) {
    // A number beyond a double (1e400): the library names the literal but not
    // where it is; its first occurrence is.
    std::string what = e.what();
    size_t open = what.find('\''), close = what.rfind('\'');
    std::string literal =
        open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    size_t byte = literal.empty() ? std::string_view::npos : text.find(literal);
    throw InputError((byte == std::string_view::npos ? source : positionIn(text, byte, source)) +
                     ": JSON number out of range: " + (literal.empty() ? what : literal));
  }
}

namespace {

// Typed access to JSON fields with errors naming the field.
class Reader {
 public:
  Reader(std::string source, std::vector<std::string>* warnings)
      : source_(std::move(source)), warnings_(warnings) {}

  [[noreturn]] void fail(const std::string& field, const std::string& cause) const {
    throw InputError(source_ + ": " + field + ": " + cause);
  }

  static std::string typeName(const json& v) {
    if (v.is_number_float()) return "a fractional number";
    if (v.is_number()) return "an integer";
    return std::string("a ") + v.type_name();
  }

  void expectObject(const json& v, const std::string& field) const {
    if (!v.is_object()) fail(field, "expected an object, got " + typeName(v));
  }

  void checkKeys(const json& obj, const std::string& field,
                 std::initializer_list<const char*> known) {
    std::set<std::string> k;
    for (const char* s : known) k.insert(s);
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!k.count(it.key()) && warnings_)
        warnings_->push_back(source_ + ": " + (field.empty() ? "" : field + ".") + it.key() +
                             ": unknown field, ignored");
  }

  int64_t integer(const json& obj, const char* key, const std::string& field, int64_t fallback,
                  bool required = false) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) fail(join(field, key), "missing required field");
      return fallback;
    }
    if (!it->is_number_integer() && !it->is_number_unsigned())
      fail(join(field, key), "expected an integer, got " + typeName(*it));
    if (it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(INT64_MAX))
      fail(join(field, key), "value too large");
    return it->get<int64_t>();
  }

  int int32(const json& obj, const char* key, const std::string& field, int fallback,
            bool required = false) {
    int64_t v = integer(obj, key, field, fallback, required);
    if (v < INT32_MIN || v > INT32_MAX)
      fail(join(field, key), "value " + std::to_string(v) + " out of range");
    return static_cast<int>(v);
  }

  double number(const json& obj, const char* key, const std::string& field, double fallback) {
    auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    if (!it->is_number()) fail(join(field, key), "expected a number, got " + typeName(*it));
    return it->get<double>();
  }

  bool boolean(const json& obj, const char* key, const std::string& field, bool fallback) {
    auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    if (!it->is_boolean()) fail(join(field, key), "expected true or false, got " + typeName(*it));
    return it->get<bool>();
  }

  std::string string(const json& obj, const char* key, const std::string& field,
                     const std::string& fallback, bool required = false) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) fail(join(field, key), "missing required field");
      return fallback;
    }
    if (!it->is_string()) fail(join(field, key), "expected a string, got " + typeName(*it));
    return it->get<std::string>();
  }

  static std::string join(const std::string& field, const char* key) {
    return field.empty() ? std::string(key) : field + "." + key;
  }

 private:
  std::string source_;
  std::vector<std::string>* warnings_;
};

ChipSpec readChip(Reader& r, const json& v) {
  if (v.is_string()) {
    auto spec = chipSpecByName(v.get<std::string>());
    if (!spec)
      r.fail("chip",
             "unknown chip '" + v.get<std::string>() + "' (known: " + knownChipNames() + ")");
    return *spec;
  }
  r.expectObject(v, "chip");
  r.checkKeys(v, "chip",
              {"name", "sparse_cores_per_chip", "tiles_per_sparse_core", "simd_lanes_f32",
               "simd_lanes_bf16", "tile_spmem_bytes", "hbm_bytes"});
  ChipSpec c;
  std::string name = r.string(v, "name", "chip", "v5p");
  if (auto spec = chipSpecByName(name))
    c = *spec;
  else
    c.name = name;  // a custom chip: v5p numbers unless overridden
  c.sparseCoresPerChip = r.int32(v, "sparse_cores_per_chip", "chip", c.sparseCoresPerChip);
  c.tilesPerSparseCore = r.int32(v, "tiles_per_sparse_core", "chip", c.tilesPerSparseCore);
  c.simdLanesF32 = r.int32(v, "simd_lanes_f32", "chip", c.simdLanesF32);
  c.simdLanesBf16 = r.int32(v, "simd_lanes_bf16", "chip", c.simdLanesBf16);
  c.tileSpmemBytes = r.integer(v, "tile_spmem_bytes", "chip", c.tileSpmemBytes);
  c.hbmBytes = r.integer(v, "hbm_bytes", "chip", c.hbmBytes);
  return c;
}

GeneratorSpec readGenerator(Reader& r, const json& v, const std::string& field) {
  r.expectObject(v, field);
  r.checkKeys(v, field,
              {"distribution", "exponent", "ids_per_sample", "ids_per_sample_max", "seed",
               "hot_ids", "hot_fraction", "vocab_size", "batch_size"});
  GeneratorSpec g;
  std::string d = r.string(v, "distribution", field, "uniform");
  if (d == "uniform")
    g.distribution = GeneratorSpec::Distribution::Uniform;
  else if (d == "zipf")
    g.distribution = GeneratorSpec::Distribution::Zipf;
  else
    r.fail(field + ".distribution", "expected \"uniform\" or \"zipf\", got \"" + d + "\"");
  g.exponent = r.number(v, "exponent", field, g.exponent);
  g.idsPerSample = r.int32(v, "ids_per_sample", field, g.idsPerSample);
  g.idsPerSampleMax = r.int32(v, "ids_per_sample_max", field, g.idsPerSampleMax);
  g.seed = static_cast<uint64_t>(r.integer(v, "seed", field, static_cast<int64_t>(g.seed)));
  g.hotIds = r.integer(v, "hot_ids", field, g.hotIds);
  g.hotFraction = r.number(v, "hot_fraction", field, g.hotFraction);
  g.vocabSize = r.integer(v, "vocab_size", field, g.vocabSize);
  g.batchSize = r.integer(v, "batch_size", field, g.batchSize);
  return g;
}

// The reference's TableSettingInStack; every field is required, since a
// partial placement cannot be completed consistently.
TableSettingInStack readSettingInStack(Reader& r, const json& v, const std::string& field) {
  r.expectObject(v, field);
  r.checkKeys(v, field,
              {"stack_name", "padded_vocab_size", "padded_embedding_dim", "row_offset_in_shard",
               "shard_rotation"});
  TableSettingInStack s;
  s.stackName = r.string(v, "stack_name", field, "", true);
  s.paddedVocabSize = r.integer(v, "padded_vocab_size", field, 0, true);
  s.paddedEmbeddingDim = r.int32(v, "padded_embedding_dim", field, 0, true);
  s.rowOffsetInShard = r.integer(v, "row_offset_in_shard", field, 0, true);
  s.shardRotation = r.int32(v, "shard_rotation", field, 0, true);
  return s;
}

// The reference's FeatureIdTransformation.
IdTransformation readIdTransformation(Reader& r, const json& v, const std::string& field) {
  r.expectObject(v, field);
  r.checkKeys(v, field, {"row_offset", "col_offset", "col_shift"});
  IdTransformation x;
  x.rowOffset = r.integer(v, "row_offset", field, 0, true);
  x.colOffset = r.integer(v, "col_offset", field, 0, true);
  x.colShift = r.int32(v, "col_shift", field, 0, true);
  return x;
}

IdBatch readSamples(Reader& r, const json& samples, const json* weights, const std::string& field) {
  if (!samples.is_array())
    r.fail(field + ".samples",
           "expected an array of samples (arrays of ids), got " + Reader::typeName(samples));
  if (weights && (!weights->is_array() || weights->size() != samples.size()))
    r.fail(field + ".weights", "expected an array with one list of weights per sample");
  IdBatch b;
  b.rowStarts.reserve(samples.size() + 1);
  for (size_t i = 0; i < samples.size(); ++i) {
    const json& s = samples[i];
    const std::string at = field + ".samples[" + std::to_string(i) + "]";
    if (!s.is_array()) r.fail(at, "expected an array of ids, got " + Reader::typeName(s));
    for (size_t k = 0; k < s.size(); ++k) {
      const json& id = s[k];
      if (!id.is_number_integer() && !id.is_number_unsigned())
        r.fail(at + "[" + std::to_string(k) + "]",
               "expected a non-negative integer id, got " + Reader::typeName(id));
      if (id.is_number_integer() && id.get<int64_t>() < 0)
        r.fail(at + "[" + std::to_string(k) + "]",
               "id " + std::to_string(id.get<int64_t>()) + " is negative");
      if (id.get<uint64_t>() > UINT32_MAX)
        r.fail(at + "[" + std::to_string(k) + "]", "id does not fit 32 bits");
      b.ids.push_back(id.get<uint32_t>());
    }
    if (weights) {
      const json& w = (*weights)[i];
      if (!w.is_array() || w.size() != s.size())
        r.fail(field + ".weights[" + std::to_string(i) + "]",
               "expected " + std::to_string(s.size()) + " weights");
      for (const json& x : w) {
        if (!x.is_number())
          r.fail(field + ".weights[" + std::to_string(i) + "]", "expected numbers");
        b.weights.push_back(x.get<float>());
      }
    }
    b.rowStarts.push_back(b.ids.size());
  }
  return b;
}

}  // namespace

Job parseJob(std::string_view text, const std::string& source, const std::string& baseDir,
             std::vector<std::string>* warnings, const std::string& csvOverride,
             std::string* deferredCsv) {
  json doc = parseJsonText(text, source);
  Reader r(source, warnings);
  if (!doc.is_object())
    r.fail("(top level)", "expected a JSON object, got " + Reader::typeName(doc));
  r.checkKeys(doc, "",
              {"chip",
               "devices",
               "sparse_cores_per_device",
               "table_stacking",
               "stacking",
               "allow_id_dropping",
               "enable_minibatching",
               "batch_size",
               "max_ids_per_chip_per_sample",
               "stack_rotation",
               "stacked_limits",
               "logical_replica_count",
               "maximum_parallel_iterations",
               "spmem_model",
               "csv",
               "tables",
               "features",
               "description",
               "name",
               "pipeline"});
  Job job;
  if (auto it = doc.find("chip"); it != doc.end()) job.chip = readChip(r, *it);
  job.devices = r.int32(doc, "devices", "", 1);
  job.sparseCoresPerDevice =
      r.int32(doc, "sparse_cores_per_device", "", job.chip.sparseCoresPerChip);
  job.tableStacking = r.boolean(doc, "stacking", "", true);
  job.tableStacking = r.boolean(doc, "table_stacking", "", job.tableStacking);
  job.allowIdDropping = r.boolean(doc, "allow_id_dropping", "", false);
  job.enableMinibatching = r.boolean(doc, "enable_minibatching", "", false);
  job.batchSize = r.integer(doc, "batch_size", "", 0);
  if (job.batchSize < 0) r.fail("batch_size", "must not be negative");
  job.maxIdsPerChipPerSample =
      r.int32(doc, "max_ids_per_chip_per_sample", "", kDefaultMaxIdsPerChipPerSample);
  if (doc.contains("stack_rotation")) {
    job.stackRotation = r.int32(doc, "stack_rotation", "", 0);
    if (*job.stackRotation < 0) r.fail("stack_rotation", "must not be negative");
  }
  if (auto it = doc.find("stacked_limits"); it != doc.end()) {
    r.expectObject(*it, "stacked_limits");
    r.checkKeys(*it, "stacked_limits", {"max_ids_per_partition", "max_unique_ids_per_partition"});
    job.stackedMaxIdsPerPartition =
        r.int32(*it, "max_ids_per_partition", "stacked_limits", job.stackedMaxIdsPerPartition);
    job.stackedMaxUniqueIdsPerPartition = r.int32(
        *it, "max_unique_ids_per_partition", "stacked_limits", job.stackedMaxUniqueIdsPerPartition);
  }
  job.logicalReplicaCount = r.int32(doc, "logical_replica_count", "", 0);
  job.maximumParallelIterations = r.int32(doc, "maximum_parallel_iterations", "", 1);
  if (auto it = doc.find("spmem_model"); it != doc.end()) {
    r.expectObject(*it, "spmem_model");
    r.checkKeys(*it, "spmem_model", {"coo_entry_bytes", "buffering"});
    job.spmem.cooEntryBytes =
        r.int32(*it, "coo_entry_bytes", "spmem_model", job.spmem.cooEntryBytes);
    job.spmem.buffering = r.int32(*it, "buffering", "spmem_model", job.spmem.buffering);
    if (job.spmem.cooEntryBytes < 1 || job.spmem.buffering < 1)
      r.fail("spmem_model", "values must be positive");
  }

  auto tables = doc.find("tables");
  if (tables == doc.end()) r.fail("tables", "missing required field");
  if (!tables->is_array())
    r.fail("tables", "expected an array of tables, got " + Reader::typeName(*tables));
  for (size_t i = 0; i < tables->size(); ++i) {
    const json& t = (*tables)[i];
    const std::string at = "tables[" + std::to_string(i) + "]";
    r.expectObject(t, at);
    r.checkKeys(t, at,
                {"name", "vocab_size", "width", "max_ids_per_partition",
                 "max_unique_ids_per_partition", "optimizer", "embedding_dim", "vocabulary_size",
                 "setting_in_stack"});
    TableSpec spec;
    spec.name = r.string(t, "name", at, "", true);
    spec.vocabSize = t.contains("vocabulary_size") ? r.integer(t, "vocabulary_size", at, 0)
                                                   : r.integer(t, "vocab_size", at, 0, true);
    spec.width = t.contains("embedding_dim") ? r.int32(t, "embedding_dim", at, 0)
                                             : r.int32(t, "width", at, 0, true);
    spec.maxIdsPerPartition = r.int32(t, "max_ids_per_partition", at, kDefaultMaxIdsPerPartition);
    spec.maxUniqueIdsPerPartition =
        r.int32(t, "max_unique_ids_per_partition", at, kDefaultMaxUniqueIdsPerPartition);
    spec.optimizer = r.string(t, "optimizer", at, "sgd");
    if (auto s = t.find("setting_in_stack"); s != t.end())
      spec.settingInStack = readSettingInStack(r, *s, at + ".setting_in_stack");
    job.tables.push_back(std::move(spec));
  }

  auto features = doc.find("features");
  if (features == doc.end()) r.fail("features", "missing required field");
  if (!features->is_array())
    r.fail("features", "expected an array of features, got " + Reader::typeName(*features));
  std::vector<bool> hasSource;
  for (size_t i = 0; i < features->size(); ++i) {
    const json& f = (*features)[i];
    const std::string at = "features[" + std::to_string(i) + "]";
    r.expectObject(f, at);
    r.checkKeys(f, at, {"name", "table", "samples", "weights", "generator", "id_transformation"});
    FeatureSpec spec;
    spec.name = r.string(f, "name", at, "", true);
    spec.table = r.string(f, "table", at, "", true);
    if (!job.table(spec.table))
      r.fail(at + ".table", "unknown table '" + spec.table + "' for feature '" + spec.name + "'");
    const bool hasSamples = f.contains("samples");
    const bool hasGenerator = f.contains("generator");
    if (hasSamples && hasGenerator)
      r.fail(at, "give either \"samples\" or \"generator\", not both");
    if (hasSamples)
      spec.ids = readSamples(r, f["samples"], f.contains("weights") ? &f["weights"] : nullptr, at);
    if (hasGenerator) spec.generator = readGenerator(r, f["generator"], at + ".generator");
    if (auto x = f.find("id_transformation"); x != f.end())
      spec.idTransformation = readIdTransformation(r, *x, at + ".id_transformation");
    hasSource.push_back(hasSamples || hasGenerator);
    job.features.push_back(std::move(spec));
  }

  // Generators run once the job-level batch size is known, on tables
  // known to be valid (their errors are theirs, not the generator's).
  validateJobAndTables(job, source);
  for (size_t i = 0; i < job.features.size(); ++i) {
    FeatureSpec& f = job.features[i];
    if (!f.generator) continue;
    try {
      f.ids = generateIds(*f.generator, job.table(f.table)->vocabSize, job.batchSize);
    } catch (const InputError& e) {
      throw InputError(source + ": features[" + std::to_string(i) + "]." + e.what());
    }
  }

  if (doc.contains("csv") || !csvOverride.empty()) {
    std::filesystem::path csv = csvOverride;
    if (csv.empty()) {
      csv = r.string(doc, "csv", "", "");
      if (csv.is_relative() && !baseDir.empty()) csv = std::filesystem::path(baseDir) / csv;
    }
    if (deferredCsv) {
      // The caller streams the file: every feature without ids takes its
      // ids from it.
      *deferredCsv = csv.string();
      for (size_t i = 0; i < hasSource.size(); ++i) hasSource[i] = true;
    } else {
      loadIdsCsvFile(job, csv.string());
    }
    for (size_t i = 0; i < hasSource.size(); ++i)
      hasSource[i] = hasSource[i] || job.features[i].ids.sampleCount() > 0;
  }
  for (size_t i = 0; i < hasSource.size(); ++i)
    if (!hasSource[i])
      r.fail("features[" + std::to_string(i) + "]",
             "feature '" + job.features[i].name +
                 "' has no \"samples\", no \"generator\" and no ids in a \"csv\" file");

  validateJob(job, source);
  return job;
}

Job loadJobFile(const std::string& path, std::vector<std::string>* warnings,
                const std::string& csvOverride, std::string* deferredCsv) {
  const std::string text = readTextFile(path);
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return parseJob(text, path, dir, warnings, csvOverride, deferredCsv);
}

json jobToJson(const Job& job, bool withSamples) {
  json j;
  j["chip"] = {{"name", job.chip.name},
               {"sparse_cores_per_chip", job.chip.sparseCoresPerChip},
               {"tiles_per_sparse_core", job.chip.tilesPerSparseCore},
               {"simd_lanes_f32", job.chip.simdLanesF32},
               {"simd_lanes_bf16", job.chip.simdLanesBf16},
               {"tile_spmem_bytes", job.chip.tileSpmemBytes},
               {"hbm_bytes", job.chip.hbmBytes}};
  j["devices"] = job.devices;
  j["sparse_cores_per_device"] = job.sparseCoresPerDevice;
  j["table_stacking"] = job.tableStacking;
  j["allow_id_dropping"] = job.allowIdDropping;
  j["enable_minibatching"] = job.enableMinibatching;
  j["batch_size"] = job.batchSize;
  j["max_ids_per_chip_per_sample"] = job.maxIdsPerChipPerSample;
  if (job.stackRotation) j["stack_rotation"] = *job.stackRotation;
  j["stacked_limits"] = {{"max_ids_per_partition", job.stackedMaxIdsPerPartition},
                         {"max_unique_ids_per_partition", job.stackedMaxUniqueIdsPerPartition}};
  j["logical_replica_count"] = job.logicalReplicaCount;
  j["maximum_parallel_iterations"] = job.maximumParallelIterations;
  j["spmem_model"] = {{"coo_entry_bytes", job.spmem.cooEntryBytes},
                      {"buffering", job.spmem.buffering}};
  j["tables"] = json::array();
  for (const TableSpec& t : job.tables) {
    json tj = {{"name", t.name},
               {"vocab_size", t.vocabSize},
               {"width", t.width},
               {"max_ids_per_partition", t.maxIdsPerPartition},
               {"max_unique_ids_per_partition", t.maxUniqueIdsPerPartition},
               {"optimizer", t.optimizer}};
    if (const auto& s = t.settingInStack)
      tj["setting_in_stack"] = {{"stack_name", s->stackName},
                                {"padded_vocab_size", s->paddedVocabSize},
                                {"padded_embedding_dim", s->paddedEmbeddingDim},
                                {"row_offset_in_shard", s->rowOffsetInShard},
                                {"shard_rotation", s->shardRotation}};
    j["tables"].push_back(std::move(tj));
  }
  j["features"] = json::array();
  for (const FeatureSpec& f : job.features) {
    json fj = {{"name", f.name}, {"table", f.table}};
    if (const auto& x = f.idTransformation)
      fj["id_transformation"] = {
          {"row_offset", x->rowOffset}, {"col_offset", x->colOffset}, {"col_shift", x->colShift}};
    if (withSamples || !f.generator) {
      json samples = json::array();
      for (size_t i = 0; i < f.ids.sampleCount(); ++i) {
        auto s = f.ids.sample(i);
        samples.push_back(std::vector<uint32_t>(s.begin(), s.end()));
      }
      fj["samples"] = std::move(samples);
    } else {
      const GeneratorSpec& g = *f.generator;
      fj["generator"] = {{"distribution",
                          g.distribution == GeneratorSpec::Distribution::Zipf ? "zipf" : "uniform"},
                         {"exponent", g.exponent},
                         {"ids_per_sample", g.idsPerSample},
                         {"ids_per_sample_max", g.idsPerSampleMax},
                         {"seed", g.seed},
                         {"hot_ids", g.hotIds},
                         {"hot_fraction", g.hotFraction},
                         {"vocab_size", g.vocabSize},
                         {"batch_size", g.batchSize}};
    }
    j["features"].push_back(std::move(fj));
  }
  return j;
}

}  // namespace shardscope::sc
