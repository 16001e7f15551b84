// Opening a document with a stop between parsing and verifying, for a
// caller that can start work on the parsed module beside the verifier.
//
// The GUI groups a large function for its graph (half a second of one core
// at a million ops). Started once the module is parsed, it runs on the other
// core while this thread verifies the module and prepares the other views,
// instead of after them:
//
//   api::AfterParse after;
//   after.parsed = [&](const std::shared_ptr<const api::Document>& doc) {
//     grouped = std::async(std::launch::async, [doc] { return group(*doc->module); });
//   };
//   after.beforeChange = [&] { grouped.wait(); stale = true; };
//   auto doc = api::loadDocument(path, &progress, after);
//
// `read` is called first, with the document holding only its text.
// `parsed` is called on the loading thread with the document as parsed
// (diagnostics, failedStage and the GSPMD note are still being filled in:
// read only its module and text). The module stays as it is, unless the file
// has GSPMD shardings to import: then `beforeChange` is called first, must
// wait for the work `parsed` started, and that work's result describes the
// module before the import (stale). Neither is called when the parse fails
// or is cancelled.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "api/document.h"

namespace shardscope::api {

struct AfterParse {
  // Called on the loading thread once the file's text is in the document
  // (`text`, final from then on) and before it is parsed: work that reads
  // only the text (the GUI converting it for its source view) may start
  // beside the parse. Not called when the file cannot be read.
  std::function<void(const std::shared_ptr<const Document>&)> read;
  std::function<void(const std::shared_ptr<const Document>&)> parsed;
  std::function<void()> beforeChange;
};

// loadDocument (document.h) with `after` told of the parsed module.
std::shared_ptr<Document> loadDocument(const std::string& path, const LoadProgress* progress,
                                       const AfterParse& after);

}  // namespace shardscope::api
