import FuzzSupport
import SDLProtocol
import SDLSpec

// Input: two bytes pick a function of the built-in catalog (rpc_spec 8.0.0, no file needed), the
// rest is parsed as JSON and validated as that function's parameters.
//
// Checked: validation never crashes or hangs and is deterministic; the lookup by name validates
// the same and the lookup by FunctionID finds the function; a non-object is one wrongType at `$`; every issue's path starts
// at `$`; no issues means every mandatory parameter is there and no key is unknown; each missing
// mandatory parameter is reported; the function's own template (mandatory only, and with every
// optional parameter) is valid.
runLibFuzzer { data, count in
    let input = UnsafeBufferPointer(start: data, count: count)
    guard input.count >= 2 else { return 0 }
    let function = catalog.functions[(Int(input[0]) << 8 | Int(input[1])) % catalog.functions.count]
    guard let parameters = try? SDLJSON.parse(input[2...]) else { return 0 }
    checkValidation(parameters, function)
    checkTemplates(function, selector: input[1])
    return 0
}
