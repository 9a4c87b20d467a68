//===- OnnxSchemas.h - ONNX's op schemas, as the importer reads them ------===//
//
// ONNX's registry of op schemas, with the shape inference of an op mended
// where the installed ONNX gets it wrong or crashes: the importer takes its
// types from that inference, so a wrong shape there would refuse a good
// model, and a crash there would take the process with it.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace onnx {
class ISchemaRegistry;
} // namespace onnx

namespace aot::onnx_import {

/// The schemas every shape inference of the importer runs with.
const onnx::ISchemaRegistry *importSchemas();

} // namespace aot::onnx_import
