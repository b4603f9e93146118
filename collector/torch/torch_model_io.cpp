// Loading a TorchScript archive, building forward()'s inputs and reading what it returned (torch_model_io.h).
#include "collector/torch/torch_model_io.h"

#include <torch/version.h>

#include <filesystem>
#include <sstream>

#include "db/model/dtype.h"
#include "db/model/input_file.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

// The first line with text: TorchScript compile errors start with a newline.
std::string first_line(const std::string& s) {
  std::size_t start = 0;
  while (start < s.size()) {
    auto nl = s.find('\n', start);
    std::string line = s.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return "";
}

// Why a TorchScript file saved by a newer torch does not load here, in one line.
std::string load_failure(const std::string& path, const std::string& message) {
  std::string line = first_line(message);
  if (line.empty()) line = "LibTorch gave no reason";
  std::string out = path + ": cannot load as TorchScript: " + line;
  if (line.find("Unknown") != std::string::npos || line.find("version") != std::string::npos) {
    out += " (the file uses something this flopscope's LibTorch " + std::to_string(TORCH_VERSION_MAJOR) +
           "." + std::to_string(TORCH_VERSION_MINOR) +
           " does not know: it was probably saved by a newer torch; run the eager program under `flopscope "
           "trace -- python3 ...` instead)";
  }
  return out;
}

at::ScalarType scalar_type(const std::string& dtype) {
  if (dtype == "float64") return at::kDouble;
  if (dtype == "float16") return at::kHalf;
  if (dtype == "bfloat16") return at::kBFloat16;
  if (dtype == "int64") return at::kLong;
  if (dtype == "int32") return at::kInt;
  if (dtype == "int16") return at::kShort;
  if (dtype == "int8") return at::kChar;
  if (dtype == "uint8") return at::kByte;
  if (dtype == "bool") return at::kBool;
  return at::kFloat;
}

std::vector<c10::IValue> make_inputs(const std::vector<InputSpec>& specs, std::uint64_t seed) {
  torch::manual_seed(seed);
  std::vector<c10::IValue> inputs;
  for (const auto& s : specs) {
    at::ScalarType type = scalar_type(s.dtype);
    if (at::isFloatingType(type)) {
      inputs.emplace_back(torch::randn(s.shape, torch::TensorOptions().dtype(torch::kFloat)).to(type));
    } else {
      inputs.emplace_back(
          torch::randint(s.low, s.high, s.shape, torch::TensorOptions().dtype(torch::kLong)).to(type));
    }
  }
  return inputs;
}

at::Tensor tensor_from_array(const InputArray& f) {
  at::Tensor t = torch::from_blob(const_cast<char*>(f.data.data()), f.shape,
                                  torch::TensorOptions().dtype(scalar_type(f.dtype)));
  return t.clone();  // own the memory
}

// "tokens, mask": forward()'s arguments after self, for messages.
std::string argument_names(const c10::FunctionSchema& schema) {
  std::string names;
  for (std::size_t i = 1; i < schema.arguments().size(); ++i)
    names += (i > 1 ? ", " : "") + schema.arguments()[i].name();
  return names;
}

// The forward() arguments of one request: in file order, or by argument name when the .npz arrays were
// saved by keyword (every name must be an argument of forward()).
StatusOr<std::vector<c10::IValue>> request_inputs(const InputFile& f, const c10::FunctionSchema& schema) {
  std::vector<c10::IValue> inputs;
  if (!f.named()) {
    for (const auto& a : f.arrays) inputs.emplace_back(tensor_from_array(a));
    return inputs;
  }
  std::vector<const InputArray*> by_argument;
  std::size_t matched = 0;
  for (std::size_t i = 1; i < schema.arguments().size(); ++i) {
    const InputArray* found = nullptr;
    for (const auto& a : f.arrays) found = a.name == schema.arguments()[i].name() ? &a : found;
    matched += found != nullptr;
    by_argument.push_back(found);
  }
  if (matched != f.arrays.size()) {
    return InvalidArgument(f.path + ": the .npz arrays are named, but not all after forward()'s arguments (" +
                           argument_names(schema) + ")");
  }
  // Arguments up to the last one given; a gap before it takes the argument's default.
  while (!by_argument.empty() && by_argument.back() == nullptr) by_argument.pop_back();
  for (std::size_t i = 0; i < by_argument.size(); ++i) {
    if (by_argument[i] != nullptr) {
      inputs.emplace_back(tensor_from_array(*by_argument[i]));
    } else if (const auto& d = schema.arguments()[i + 1].default_value()) {
      inputs.push_back(*d);
    } else {
      return InvalidArgument(f.path + ": no array for forward()'s argument '" +
                             schema.arguments()[i + 1].name() + "'");
    }
  }
  return inputs;
}

}  // namespace

// The interpreter's own cause: TorchScript wraps it as "The following operation failed in the TorchScript
// interpreter. Traceback ... RuntimeError: <cause>"; the cause is the last non-empty line.
std::string failure_cause(const std::string& s) {
  if (s.find("The following operation failed") == std::string::npos) return first_line(s);
  std::size_t end = s.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return first_line(s);
  std::size_t start = s.rfind('\n', end);
  std::string last = s.substr(start == std::string::npos ? 0 : start + 1,
                              end + 1 - (start == std::string::npos ? 0 : start + 1));
  return last.empty() ? first_line(s) : last;
}

StatusOr<torch::jit::Module> load_torchscript_module(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return NotFound(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) return InvalidArgument(path + ": is a directory, not a model");
  if (Status s = check_input_file(path); !s.ok()) return s;
  try {
    torch::jit::Module m = torch::jit::load(path, torch::kCPU);
    m.eval();
    return m;
  } catch (const c10::Error& e) {
    return InvalidArgument(path +
                           ": not a TorchScript archive (expected a file written by torch.jit.save): " +
                           first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    return InvalidArgument(load_failure(path, e.what()));
  }
}

// Every tensor of a returned value with its path: "0" for a bare tensor, tuple and list indices, dict keys,
// joined with "." when nested ("1.logits"). Other leaves (None, numbers, strings) hold no tensor.
void collect_output_tensors(const c10::IValue& v, const std::string& path,
                            std::vector<std::pair<std::string, at::Tensor>>& out) {
  auto child = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (v.isTensor()) {
    if (v.toTensor().defined()) out.emplace_back(path.empty() ? "0" : path, v.toTensor());
  } else if (v.isTuple()) {
    const auto& elements = v.toTupleRef().elements();
    for (std::size_t i = 0; i < elements.size(); ++i)
      collect_output_tensors(elements[i], child(std::to_string(i)), out);
  } else if (v.isList()) {
    const auto list = v.toListRef();
    for (std::size_t i = 0; i < list.size(); ++i)
      collect_output_tensors(list[i], child(std::to_string(i)), out);
  } else if (v.isGenericDict()) {
    for (const auto& e : v.toGenericDict()) {
      const c10::IValue& k = e.key();
      std::ostringstream key;
      if (k.isString())
        key << k.toStringRef();
      else
        key << k;
      collect_output_tensors(e.value(), child(key.str()), out);
    }
  }
}

// One returned tensor: hash of its own bytes, every element as double while the run's value budget lasts
// (`budget_left` shrinks), statistics either way.
OutputTensor output_tensor(const std::string& name, const at::Tensor& tensor, std::int64_t& budget_left) {
  OutputTensor t;
  t.name = name;
  at::Tensor c = tensor.detach().cpu().contiguous();
  t.dtype = normalize_dtype(c10::toString(c.scalar_type()));
  t.shape.assign(c.sizes().begin(), c.sizes().end());
  t.sha256 = sha256_hex(std::string_view(static_cast<const char*>(c.data_ptr()), c.nbytes()));
  if (c.is_complex()) c = at::view_as_real(c);  // real and imaginary parts as elements
  at::Tensor d = c.to(at::kDouble).contiguous();
  const double* x = d.data_ptr<double>();
  t.values.assign(x, x + d.numel());
  fill_output_statistics(t);
  const auto bytes = static_cast<std::int64_t>(c.nbytes());
  if (bytes > budget_left) {
    budget_left = -1;  // later tensors are summarized too, as summarize_outputs_over_budget does
    t.values.clear();
    t.values.shrink_to_fit();
    t.summarized = true;
  } else {
    budget_left -= bytes;
  }
  return t;
}

// sha256 over every input's dtype, shape and bytes (other values by their printed form), in argument order:
// two runs fed the same request file or the same seeded --input agree on it.
std::string input_hash(const std::vector<c10::IValue>& inputs) {
  std::string key;
  for (const auto& v : inputs) {
    if (v.isTensor()) {
      at::Tensor c = v.toTensor().detach().cpu().contiguous();
      key += "tensor " + normalize_dtype(c10::toString(c.scalar_type())) + " [";
      for (auto s : c.sizes()) key += std::to_string(s) + ",";
      key += "] ";
      key += sha256_hex(std::string_view(static_cast<const char*>(c.data_ptr()), c.nbytes()));
    } else {
      std::ostringstream text;
      text << v;
      key += "value " + text.str();
    }
    key += "\n";
  }
  return sha256_hex(key);
}

StatusOr<std::vector<ModelRequest>> model_requests(const std::string& model_path,
                                                   const c10::FunctionSchema& schema,
                                                   const std::vector<InputSpec>& specs,
                                                   const std::vector<InputFile>& files, std::uint64_t seed) {
  std::size_t expected = schema.arguments().empty() ? 0 : schema.arguments().size() - 1;  // minus self
  std::size_t required = 0;
  for (std::size_t i = 1; i < schema.arguments().size(); ++i) {
    if (!schema.arguments()[i].default_value()) ++required;
  }
  std::size_t given = specs.size();
  for (const auto& r : files) {
    given = r.arrays.size();
    if (given < required || given > expected) break;
  }
  if (given < required || given > expected) {
    return InvalidArgument(
        model_path + ": forward(" + argument_names(schema) + ") takes " + std::to_string(required) +
        (required == expected ? "" : "-" + std::to_string(expected)) + " input(s), but " +
        std::to_string(given) +
        (files.empty() ? " --input spec(s) were given" : " array(s) were given in a request file"));
  }
  std::vector<ModelRequest> requests;
  if (files.empty()) {
    std::string what;
    for (const auto& s : specs) what += (what.empty() ? "--input " : " --input ") + s.text;
    requests.push_back({make_inputs(specs, seed), "", what});
  } else {
    for (const auto& f : files) {
      FS_ASSIGN_OR_RETURN(std::vector<c10::IValue> inputs, request_inputs(f, schema));
      requests.push_back({std::move(inputs), f.tag, f.path});
    }
  }
  return requests;
}

}  // namespace flopscope
