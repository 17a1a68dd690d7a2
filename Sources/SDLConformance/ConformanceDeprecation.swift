import SDLSpec

/// Where a validation issue lies inside a parameter MOBILE_API.xml marks `deprecated="true"`.
///
/// The spec keeps deprecated parameters for older apps and names what replaces them
/// (RegisterAppInterface's `displayCapabilities` since 6.0: "replaced by SystemCapability using
/// DISPLAYS"); a head unit that fills them in loosely still serves current apps. A case reports a
/// deviation there as a warning and does not fail on it; the same deviation in a current
/// parameter fails the case.
enum ConformanceDeprecation {
    /// The path of the outermost deprecated parameter (or parameter of a deprecated struct type)
    /// on `path` (`$.displayCapabilities.graphicSupported` → `$.displayCapabilities`), or nil
    /// when every parameter on it is current, or the path leaves the spec.
    static func deprecatedParameter(on path: String, of function: SDLFunction, in catalog: SDLCatalog) -> String? {
        var parameters = function.parameters
        var walked = "$"
        for step in steps(of: path) {
            guard case .key(let key) = step else { continue }  // an array index stays on the same parameter
            guard let parameter = parameters.first(where: { $0.name == key }) else { return nil }
            walked += "." + key
            if parameter.isDeprecated { return walked }
            guard case .structure(let name) = parameter.type, let structure = catalog.structs[name] else { return nil }
            if structure.isDeprecated { return walked }
            parameters = structure.parameters
        }
        return nil
    }

    enum Step: Equatable {
        case key(String)
        case index
    }

    /// The steps of a validation path (``SDLValidationIssue/path``): `.key`, `["key"]` (keys the
    /// spec never uses: they end the walk) and `[index]`.
    static func steps(of path: String) -> [Step] {
        var steps: [Step] = []
        var rest = Substring(path)
        guard rest.first == "$" else { return [] }
        rest = rest.dropFirst()
        while let first = rest.first {
            if first == "." {
                rest = rest.dropFirst()
                let key = rest.prefix { $0 != "." && $0 != "[" }
                steps.append(.key(String(key)))
                rest = rest.dropFirst(key.count)
            } else if first == "[" {
                let inside = rest.dropFirst().prefix { $0 != "]" }
                guard inside.allSatisfy(\.isNumber), !inside.isEmpty else {
                    // A quoted key: no spec parameter is spelled that way.
                    steps.append(.key(""))
                    return steps
                }
                steps.append(.index)
                rest = rest.dropFirst(inside.count + 2)
            } else {
                return steps
            }
        }
        return steps
    }
}
