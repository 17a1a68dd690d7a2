import SDLProtocol

extension SDLCatalog {
    /// A fill-in template for function `name` of `messageType`; see ``template(for:includeOptional:maximumDepth:)``.
    public func template(
        function name: String, messageType: SDLMessageType = .request, includeOptional: Bool = false, maximumDepth: Int = 4
    ) throws(SDLSpecError) -> SDLJSON {
        template(
            for: try requireFunction(named: name, messageType: messageType), includeOptional: includeOptional, maximumDepth: maximumDepth)
    }

    /// A JSON parameters object for `function` with every mandatory param (and, with
    /// `includeOptional`, every param) set to a placeholder that satisfies the spec's
    /// constraints, so that ``validate(_:against:maximumDepth:)`` accepts it:
    ///
    /// - `defvalue` when it is valid for the param;
    /// - numbers: 0 clamped into `minvalue...maxvalue` (Integer rounded into range);
    /// - Boolean: `false`; enum: its first (allowed) element;
    /// - String: the param name, cut to `maxlength` and padded with `x` to `minlength`;
    /// - arrays: `max(1, minsize)` elements (at most `maxsize`);
    /// - structs: recursively, with only mandatory members. Optional struct members are added
    ///   only above `maximumDepth` levels, which bounds recursive structs.
    public func template(for function: SDLFunction, includeOptional: Bool = false, maximumDepth: Int = 4) -> SDLJSON {
        object(function.parameters, includeOptional: includeOptional, depth: 0, maximumDepth: maximumDepth)
    }

    private func object(_ parameters: [SDLParameter], includeOptional: Bool, depth: Int, maximumDepth: Int) -> SDLJSON {
        var members: [String: SDLJSON] = [:]
        for parameter in parameters where parameter.isMandatory || (includeOptional && depth < maximumDepth) {
            // A mandatory cycle of structs cannot be satisfied; stop well past any real chain.
            if depth > Self.defaultValidationDepth { break }
            let value = placeholder(parameter, includeOptional: includeOptional, depth: depth, maximumDepth: maximumDepth)
            if parameter.isArray {
                var count = max(1, parameter.minSize ?? 0)
                if let maxSize = parameter.maxSize { count = min(count, maxSize) }
                members[parameter.name] = .array(Array(repeating: value, count: count))
            } else {
                members[parameter.name] = value
            }
        }
        return .object(members)
    }

    private func placeholder(_ parameter: SDLParameter, includeOptional: Bool, depth: Int, maximumDepth: Int) -> SDLJSON {
        if let candidate = defaultJSON(parameter), issues(candidate, asElementOf: parameter).isEmpty {
            return candidate
        }
        switch parameter.type {
        case .integer:
            var value = 0.0
            if let minValue = parameter.minValue { value = max(value, minValue.rounded(.up)) }
            if let maxValue = parameter.maxValue { value = min(value, maxValue.rounded(.down)) }
            return .int(Int64(value))
        case .float:
            var value = 0.0
            if let minValue = parameter.minValue { value = max(value, minValue) }
            if let maxValue = parameter.maxValue { value = min(value, maxValue) }
            return .double(value)
        case .boolean:
            return .bool(false)
        case .string:
            var text = String(String.UnicodeScalarView(parameter.name.unicodeScalars.prefix(parameter.maxLength ?? Int.max)))
            let missing = (parameter.minLength ?? 0) - text.unicodeScalars.count
            if missing > 0 { text += String(repeating: "x", count: missing) }
            return .string(text)
        case .enumeration(let name):
            return .string(parameter.allowedElements?.first ?? enums[name]?.elements.first?.name ?? "")
        case .structure(let name):
            return object(structs[name]?.parameters ?? [], includeOptional: includeOptional, depth: depth + 1, maximumDepth: maximumDepth)
        }
    }

    /// The param's `defvalue` as JSON of its type, if it reads as one.
    private func defaultJSON(_ parameter: SDLParameter) -> SDLJSON? {
        guard let text = parameter.defaultValue else { return nil }
        switch parameter.type {
        case .integer: return Int64(text).map(SDLJSON.int) ?? Double(text).map(SDLJSON.double)
        case .float: return Double(text).map(SDLJSON.double)
        case .boolean: return Bool(text).map(SDLJSON.bool)
        case .string, .enumeration: return .string(text)
        case .structure: return nil
        }
    }
}
