// A type as values hold it: a pointer to one immutable copy of that type,
// shared by the whole process.
//
// A module of a million ops has a million results but only a few hundred
// distinct types. Each `Value` used to carry its own `ir::Type` (a shape
// vector and three strings: 184 bytes, and a heap block for the shape), so
// reading a module copied every type and every walk over values dragged
// those bytes through the cache. A `TypeRef` is one pointer; equal types
// are the same pointer, so comparing them is a pointer compare.
//
//   ir::TypeRef t = ir::Type::tensor({4, 8}, "f32");  // interned once
//   ir::TypeRef u = ir::Type::tensor({4, 8}, "f32");  // the same pointer
//   assert(t == u && &*t == &*u);
//   int64_t rows = t->shape[0];                        // read through ->
//   const ir::Type& plain = t;                         // or as a Type
//
// Interned types live until the process ends (like op and attribute names,
// `ir::AttrName`): they are few, and values of any module, on any thread,
// may point at them. Interning takes a lock; the reader asks once per
// distinct spelling, not once per value.
#pragma once
#include <cstddef>

#include "type.h"

namespace shardscope::ir {

class TypeRef {
 public:
  // The empty type (`Type{}`: kind Other, no text), as a default.
  TypeRef();
  TypeRef(const Type& t) : t_(&intern(t)) {}  // NOLINT: types convert implicitly

  const Type& operator*() const { return *t_; }
  const Type* operator->() const { return t_; }
  operator const Type&() const { return *t_; }  // NOLINT
  const Type& get() const { return *t_; }

  // Interned: the same type is the same pointer.
  bool operator==(const TypeRef& o) const { return t_ == o.t_; }
  bool operator==(const Type& o) const { return *t_ == o; }

  // The process-wide copy of `t`.
  static const Type& intern(const Type& t);

 private:
  const Type* t_;
};

// A structural hash of a type (shape, element type, encoding, nested types).
size_t hashType(const Type& t);

}  // namespace shardscope::ir
