#include "db/model/dtype.h"

#include <array>
#include <utility>

namespace flopscope {
namespace {

struct DtypeInfo {
  std::string_view name;
  int size;
  bool floating;
};

constexpr std::array<DtypeInfo, 17> kDtypes{{
    {"float64", 8, true},
    {"float32", 4, true},
    {"float16", 2, true},
    {"bfloat16", 2, true},
    {"float8_e4m3fn", 1, true},
    {"float8_e5m2", 1, true},
    {"complex64", 8, true},
    {"complex128", 16, true},
    {"int64", 8, false},
    {"int32", 4, false},
    {"int16", 2, false},
    {"int8", 1, false},
    {"uint8", 1, false},
    {"uint16", 2, false},
    {"uint32", 4, false},
    {"uint64", 8, false},
    {"bool", 1, false},
}};

// Aliases seen in PyTorch (c10 names, torch.* reprs), Kineto traces and safetensors headers.
constexpr std::array<std::pair<std::string_view, std::string_view>, 46> kAliases{{
    // c10::ScalarType names (c10::toString).
    {"Float", "float32"},
    {"Double", "float64"},
    {"Half", "float16"},
    {"BFloat16", "bfloat16"},
    {"Long", "int64"},
    {"Int", "int32"},
    {"Short", "int16"},
    {"Char", "int8"},
    {"Byte", "uint8"},
    {"Bool", "bool"},
    {"ComplexFloat", "complex64"},
    {"ComplexDouble", "complex128"},
    {"float", "float32"},
    {"c10::Float", "float32"},
    {"F32", "float32"},
    {"double", "float64"},
    {"c10::Double", "float64"},
    {"F64", "float64"},
    {"c10::Half", "float16"},
    {"half", "float16"},
    {"F16", "float16"},
    {"c10::BFloat16", "bfloat16"},
    {"BF16", "bfloat16"},
    {"long int", "int64"},
    {"long", "int64"},
    {"int64_t", "int64"},
    {"I64", "int64"},
    {"int", "int32"},
    {"I32", "int32"},
    {"short", "int16"},
    {"short int", "int16"},
    {"I16", "int16"},
    {"signed char", "int8"},
    {"I8", "int8"},
    {"unsigned char", "uint8"},
    {"U8", "uint8"},
    {"BOOL", "bool"},
    {"c10::complex<float>", "complex64"},
    {"c10::complex<double>", "complex128"},
    {"F8_E4M3", "float8_e4m3fn"},
    {"F8_E5M2", "float8_e5m2"},
    {"c10::Float8_e4m3fn", "float8_e4m3fn"},
    {"c10::Float8_e5m2", "float8_e5m2"},
    {"U16", "uint16"},
    {"U32", "uint32"},
    {"U64", "uint64"},
}};

const DtypeInfo* find(std::string_view dtype) {
  for (const auto& d : kDtypes) {
    if (d.name == dtype) return &d;
  }
  return nullptr;
}

}  // namespace

std::string normalize_dtype(std::string_view name) {
  if (name.starts_with("torch.")) name.remove_prefix(6);
  if (find(name) != nullptr) return std::string(name);
  for (const auto& [alias, canonical] : kAliases) {
    if (alias == name) return std::string(canonical);
  }
  return std::string(name);
}

int dtype_size(std::string_view dtype) {
  const DtypeInfo* d = find(dtype);
  return d != nullptr ? d->size : 0;
}

bool is_floating_dtype(std::string_view dtype) {
  const DtypeInfo* d = find(dtype);
  return d != nullptr && d->floating;
}

}  // namespace flopscope
