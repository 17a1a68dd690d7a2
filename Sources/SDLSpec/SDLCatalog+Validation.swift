import SDLProtocol

extension SDLCatalog {
    /// The default struct nesting bound of validation: deeper than any chain of MOBILE_API.xml
    /// 8.0.0, and below ``SDLJSON/defaultMaximumDepth``.
    public static let defaultValidationDepth = 32

    /// Validates the JSON parameters of an RPC against function `name` of `messageType`.
    /// Throws ``SDLSpecError/Code/unknownFunction`` when the catalog has no such function.
    public func validate(
        _ parameters: SDLJSON, function name: String, messageType: SDLMessageType = .request, maximumDepth: Int = defaultValidationDepth
    ) throws(SDLSpecError) -> [SDLValidationIssue] {
        validate(parameters, against: try requireFunction(named: name, messageType: messageType), maximumDepth: maximumDepth)
    }

    /// Validates the JSON parameters of an RPC (the `parameters` object of protocol spec §5.2, docs/protocol.md §c)
    /// against `function`, as SDL Core's schema checks do, and returns every problem found
    /// (empty when valid), in param order, then unknown keys sorted.
    ///
    /// - Integer: a JSON integer, or a number with no fraction. Float: any number.
    /// - Enum: a string that is one of the element names (and of the param's
    ///   ``SDLParameter/allowedElements`` when it lists some).
    /// - Struct: an object, checked recursively; structs below `maximumDepth` levels are
    ///   reported as ``SDLValidationIssue/Kind/nestingTooDeep`` and not looked into.
    /// - String length is counted in Unicode scalars (code points), as SDL Core counts the
    ///   characters of its UTF-8 strings, not in bytes or grapheme clusters.
    /// - `null` is never a valid value.
    public func validate(
        _ parameters: SDLJSON, against function: SDLFunction, maximumDepth: Int = defaultValidationDepth
    ) -> [SDLValidationIssue] {
        var issues: [SDLValidationIssue] = []
        checkObject(
            parameters, parameters: function.parameters, expected: "object", path: "$", depth: 0, maximumDepth: maximumDepth, into: &issues)
        return issues
    }

    /// The problems of `value` as one element of `parameter` (an array element when it is an
    /// array), at path `$`.
    func issues(_ value: SDLJSON, asElementOf parameter: SDLParameter, maximumDepth: Int = defaultValidationDepth) -> [SDLValidationIssue] {
        var issues: [SDLValidationIssue] = []
        var element = parameter
        element.isArray = false
        check(value, element, path: "$", depth: 0, maximumDepth: maximumDepth, into: &issues)
        return issues
    }

    private func checkObject(
        _ value: SDLJSON, parameters: [SDLParameter], expected: String, path: String, depth: Int, maximumDepth: Int,
        into issues: inout [SDLValidationIssue]
    ) {
        guard case .object(let members) = value else {
            issues.append(SDLValidationIssue(kind: .wrongType, path: path, expected: expected, got: Self.describe(value)))
            return
        }
        guard depth <= maximumDepth else {
            issues.append(
                SDLValidationIssue(
                    kind: .nestingTooDeep, path: path, expected: "at most \(maximumDepth) nested structs", got: "deeper nesting"))
            return
        }
        // Paths are built only for members present or missing: a Show has some 30 optional
        // parameters, and a valid request names a few of them.
        for parameter in parameters {
            guard let member = members[parameter.name] else {
                if parameter.isMandatory {
                    issues.append(
                        SDLValidationIssue(
                            kind: .missingMandatory, path: Self.path(path, key: parameter.name), expected: Self.describe(parameter),
                            got: "absent"))
                }
                continue
            }
            check(member, parameter, path: Self.path(path, key: parameter.name), depth: depth, maximumDepth: maximumDepth, into: &issues)
        }
        // Unknown keys: each member looked up among the parameters (an object has few members),
        // sorted only when there are some.
        let unknown = members.keys.filter { key in !parameters.contains { $0.name == key } }
        for key in unknown.sorted() {
            let expected = "no such parameter" + SDLSpelling.didYouMean(key, among: parameters.map(\.name))
            issues.append(
                SDLValidationIssue(
                    kind: .unknownParameter, path: Self.path(path, key: key), expected: expected, got: Self.describe(members[key]!)))
        }
    }

    private func check(
        _ value: SDLJSON, _ parameter: SDLParameter, path: String, depth: Int, maximumDepth: Int, into issues: inout [SDLValidationIssue]
    ) {
        guard parameter.isArray else {
            if case .array = value {
                issues.append(
                    SDLValidationIssue(kind: .wrongType, path: path, expected: Self.describe(parameter.type), got: Self.describe(value)))
            } else {
                checkElement(value, parameter, path: path, depth: depth, maximumDepth: maximumDepth, into: &issues)
            }
            return
        }
        guard case .array(let elements) = value else {
            issues.append(
                SDLValidationIssue(kind: .wrongType, path: path, expected: "array of \(parameter.type)", got: Self.describe(value)))
            return
        }
        if let minSize = parameter.minSize, elements.count < minSize {
            issues.append(
                SDLValidationIssue(kind: .arrayTooShort, path: path, expected: "at least \(minSize) elements", got: Self.describe(value)))
        }
        if let maxSize = parameter.maxSize, elements.count > maxSize {
            issues.append(
                SDLValidationIssue(kind: .arrayTooLong, path: path, expected: "at most \(maxSize) elements", got: Self.describe(value)))
        }
        for (index, element) in elements.enumerated() {
            let elementPath = path + "[\(index)]"
            if case .array = element {
                issues.append(
                    SDLValidationIssue(
                        kind: .wrongType, path: elementPath, expected: Self.describe(parameter.type), got: Self.describe(element)))
            } else {
                checkElement(element, parameter, path: elementPath, depth: depth, maximumDepth: maximumDepth, into: &issues)
            }
        }
    }

    private func checkElement(
        _ value: SDLJSON, _ parameter: SDLParameter, path: String, depth: Int, maximumDepth: Int, into issues: inout [SDLValidationIssue]
    ) {
        func wrongType(_ expected: String) {
            issues.append(SDLValidationIssue(kind: .wrongType, path: path, expected: expected, got: Self.describe(value)))
        }
        switch parameter.type {
        case .integer, .float:
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .double(let double) where parameter.type == .float || double.rounded(.towardZero) == double: number = double
            default: return wrongType(Self.describeNumber(parameter))
            }
            if let minValue = parameter.minValue, number < minValue {
                issues.append(
                    SDLValidationIssue(
                        kind: .valueTooSmall, path: path, expected: Self.describeNumber(parameter), got: Self.describe(value)))
            }
            if let maxValue = parameter.maxValue, number > maxValue {
                issues.append(
                    SDLValidationIssue(
                        kind: .valueTooLarge, path: path, expected: Self.describeNumber(parameter), got: Self.describe(value)))
            }
        case .boolean:
            guard case .bool = value else { return wrongType("Boolean") }
        case .string:
            guard case .string(let text) = value else { return wrongType(Self.describeString(parameter)) }
            let length = text.unicodeScalars.count
            if let minLength = parameter.minLength, length < minLength {
                issues.append(
                    SDLValidationIssue(
                        kind: .stringTooShort, path: path, expected: Self.describeString(parameter), got: Self.describe(value)))
            }
            if let maxLength = parameter.maxLength, length > maxLength {
                issues.append(
                    SDLValidationIssue(
                        kind: .stringTooLong, path: path, expected: Self.describeString(parameter), got: Self.describe(value)))
            }
        case .enumeration(let name):
            guard case .string(let text) = value else { return wrongType("one of enum \(name) (String)") }
            if enums[name]?.contains(text) != true {
                let elements = enums[name]?.elements.map(\.name) ?? []
                let expected = "one of enum \(name)" + SDLSpelling.didYouMean(text, among: elements) + Self.listing(elements)
                issues.append(SDLValidationIssue(kind: .notAnEnumElement, path: path, expected: expected, got: Self.describe(value)))
            } else if let allowed = parameter.allowedElements, !allowed.contains(text) {
                issues.append(
                    SDLValidationIssue(
                        kind: .notAnEnumElement, path: path, expected: "one of " + allowed.joined(separator: ", "),
                        got: Self.describe(value)))
            }
        case .structure(let name):
            checkObject(
                value, parameters: structs[name]?.parameters ?? [], expected: "struct \(name) (object)", path: path, depth: depth + 1,
                maximumDepth: maximumDepth, into: &issues)
        }
    }

    // MARK: Descriptions

    /// The elements an enum allows, for its issue: `: A, B, C`, the first ``listedElements`` of a
    /// long enum and how many more (`GET /v1/spec/types/{name}` has them all).
    static func listing(_ elements: [String]) -> String {
        guard !elements.isEmpty else { return "" }
        let shown = elements.prefix(listedElements).joined(separator: ", ")
        return elements.count > listedElements ? ": \(shown) and \(elements.count - listedElements) more" : ": \(shown)"
    }

    /// How many elements of an enum an issue lists.
    static let listedElements = 40

    static func path(_ base: String, key: String) -> String {
        let isIdentifier =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            }
            && !("0"..."9").contains(key.unicodeScalars.first!)
        return isIdentifier ? base + "." + key : base + "[" + SDLJSON.string(key).serialized() + "]"
    }

    static func format(_ number: Double) -> String {
        if number.rounded(.towardZero) == number, abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    static func describeNumber(_ parameter: SDLParameter) -> String {
        let type = parameter.type.specName
        switch (parameter.minValue, parameter.maxValue) {
        case let (min?, max?): return "\(type) in \(format(min))...\(format(max))"
        case let (min?, nil): return "\(type) >= \(format(min))"
        case let (nil, max?): return "\(type) <= \(format(max))"
        case (nil, nil): return type
        }
    }

    static func describeString(_ parameter: SDLParameter) -> String {
        switch (parameter.minLength, parameter.maxLength) {
        case let (min?, max?): return "String of \(min)...\(max) characters"
        case let (min?, nil): return "String of at least \(min) characters"
        case let (nil, max?): return "String of at most \(max) characters"
        case (nil, nil): return "String"
        }
    }

    static func describe(_ type: SDLValueType) -> String {
        switch type {
        case .enumeration(let name): return "one of enum \(name) (String)"
        case .structure(let name): return "struct \(name) (object)"
        default: return type.specName
        }
    }

    static func describe(_ parameter: SDLParameter) -> String {
        let element: String
        switch parameter.type {
        case .integer, .float: element = describeNumber(parameter)
        case .string: element = describeString(parameter)
        default: element = describe(parameter.type)
        }
        guard parameter.isArray else { return element }
        switch (parameter.minSize, parameter.maxSize) {
        case let (min?, max?): return "array of \(min)...\(max) \(element)"
        case let (min?, nil): return "array of at least \(min) \(element)"
        case let (nil, max?): return "array of at most \(max) \(element)"
        case (nil, nil): return "array of \(element)"
        }
    }

    /// A short account of a JSON value for ``SDLValidationIssue/got``.
    static func describe(_ value: SDLJSON) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "Boolean \(flag)"
        case .int(let integer): return "Integer \(integer)"
        case .double(let double): return "Float \(double)"
        case .string(let text):
            let shown = text.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…" : text
            return "String " + SDLJSON.string(shown).serialized() + " (\(text.unicodeScalars.count) characters)"
        case .array(let elements): return "array of \(elements.count) elements"
        case .object: return "object"
        }
    }
}
