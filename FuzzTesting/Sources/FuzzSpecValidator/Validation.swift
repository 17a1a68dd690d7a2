import FuzzSupport
import SDLProtocol
import SDLSpec

/// The catalog compiled into SDLSpec (rpc_spec 8.0.0); no MOBILE_API.xml is needed.
let catalog = SDLCatalog.builtIn

func checkValidation(_ parameters: SDLJSON, _ function: SDLFunction) {
    let issues = catalog.validate(parameters, against: function)
    check(catalog.validate(parameters, against: function) == issues, "validation is not deterministic")
    if catalog.function(named: function.name, messageType: function.messageType) == function {
        check(
            (try? catalog.validate(parameters, function: function.name, messageType: function.messageType)) == issues,
            "validation by name differs")
    }
    check(
        catalog.function(id: function.functionID, messageType: function.messageType) != nil,
        "\(function.name) is not found by its FunctionID")
    for issue in issues {
        check(issue.path.hasPrefix("$"), "issue path \(issue.path) does not start at $")
        check(!issue.message.isEmpty, "an issue without a message")
    }
    guard case .object(let members) = parameters else {
        check(issues.count == 1 && issues[0].kind == .wrongType && issues[0].path == "$", "a non-object gives \(issues)")
        return
    }
    let missing = function.parameters.filter { $0.isMandatory && members[$0.name] == nil }
    let reportedMissing = issues.filter { $0.kind == .missingMandatory }
    check(reportedMissing.count >= missing.count, "\(missing.count) mandatory parameters missing, \(reportedMissing.count) reported")
    if issues.isEmpty {
        check(missing.isEmpty, "valid without mandatory parameters \(missing.map(\.name))")
        check(members.keys.allSatisfy { key in function.parameters.contains { $0.name == key } }, "valid with an unknown key")
    }
}

/// Functions whose templates were checked; the fuzzer runs one input at a time.
nonisolated(unsafe) var checkedTemplates: Set<String> = []

/// The template of a function is valid for it (checked once per function and variant).
func checkTemplates(_ function: SDLFunction, selector: UInt8) {
    let includeOptional = selector & 1 == 1
    guard checkedTemplates.insert("\(function.name) \(function.messageType) \(includeOptional)").inserted else { return }
    let template = catalog.template(for: function, includeOptional: includeOptional)
    let issues = catalog.validate(template, against: function)
    check(issues.isEmpty, "the template of \(function.name) \(function.messageType) (optional: \(includeOptional)) is invalid: \(issues)")
}
