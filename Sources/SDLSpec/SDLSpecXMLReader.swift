import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The XMLParser delegate behind ``SDLCatalog/init(xml:)``: collects the top-level definitions
/// with their raw type names, then resolves types and FunctionIDs once the document is read.
final class SDLSpecXMLReader: NSObject, XMLParserDelegate {
    private struct RawParameter {
        var parameter: SDLParameter
        var typeName: String
        var line: Int
    }

    private struct RawFunction {
        var name: String
        var functionIDName: String
        var messageType: SDLMessageType
        var parameters: [RawParameter]
        var since: String?
        var until: String?
        var isDeprecated: Bool
        var line: Int
    }

    private struct RawStruct {
        var name: String
        var parameters: [RawParameter]
        var since: String?
        var until: String?
        var isDeprecated: Bool
        var line: Int
    }

    private enum Container {
        case none
        case function(RawFunction)
        case structure(RawStruct)
        case enumeration(SDLEnum, line: Int)
    }

    private var depth = 0
    private var open: [String] = []
    private var sawRoot = false
    private var historyDepth = 0
    private var sawInterface = false
    private var version = ""
    private var minVersion: String?
    private var date: String?
    private var container = Container.none
    private var functions: [RawFunction] = []
    private var structs: [RawStruct] = []
    private var enums: [(SDLEnum, Int)] = []
    private var failure: SDLSpecError?
    private weak var parser: XMLParser?

    static func read(_ data: Data) throws(SDLSpecError) -> SDLCatalog {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let reader = SDLSpecXMLReader()
        reader.parser = parser
        parser.delegate = reader
        let ok = parser.parse()
        if let failure = reader.failure { throw failure }
        // swift-corelibs-foundation may report success for some well-formedness errors (such as
        // a mismatched end tag), so the element nesting is checked here as well.
        guard ok, reader.sawRoot, reader.open.isEmpty else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "parse failed"
            throw SDLSpecError(.malformedXML, "not well-formed XML: \(reason)", line: parser.lineNumber)
        }
        guard reader.sawInterface else {
            throw SDLSpecError(.missingInterface, "the document has no root <interface> element")
        }
        return try reader.resolve()
    }

    // MARK: Resolution

    private func resolve() throws(SDLSpecError) -> SDLCatalog {
        var enumsByName: [String: SDLEnum] = [:]
        for (definition, line) in enums {
            guard enumsByName[definition.name] == nil else {
                throw SDLSpecError(.duplicateDefinition, "enum \(definition.name) is defined twice", line: line)
            }
            enumsByName[definition.name] = definition
        }
        var structNames: Set<String> = []
        for definition in structs {
            guard enumsByName[definition.name] == nil, structNames.insert(definition.name).inserted else {
                throw SDLSpecError(.duplicateDefinition, "struct \(definition.name) is defined twice", line: definition.line)
            }
        }
        func resolve(_ raw: [RawParameter], owner: String) throws(SDLSpecError) -> [SDLParameter] {
            var result: [SDLParameter] = []
            for item in raw {
                var parameter = item.parameter
                if let basic = SDLValueType(basicTypeName: item.typeName) {
                    parameter.type = basic
                } else if let definition = enumsByName[item.typeName] {
                    parameter.type = .enumeration(item.typeName)
                    for name in parameter.allowedElements ?? [] where !definition.contains(name) {
                        throw SDLSpecError(
                            .unknownElement, "\(owner).\(parameter.name) allows \(name), which is not an element of enum \(item.typeName)",
                            line: item.line)
                    }
                } else if structNames.contains(item.typeName) {
                    parameter.type = .structure(item.typeName)
                } else {
                    throw SDLSpecError(.unknownType, "\(owner).\(parameter.name) has unknown type \(item.typeName)", line: item.line)
                }
                if case .enumeration = parameter.type {} else { parameter.allowedElements = nil }
                result.append(parameter)
            }
            return result
        }
        var structsByName: [String: SDLStruct] = [:]
        for raw in structs {
            structsByName[raw.name] = SDLStruct(
                name: raw.name, parameters: try resolve(raw.parameters, owner: raw.name),
                since: raw.since, until: raw.until, isDeprecated: raw.isDeprecated
            )
        }
        let functionIDs = enumsByName["FunctionID"]
        var seen: Set<String> = []
        var resolvedFunctions: [SDLFunction] = []
        for raw in functions {
            guard seen.insert("\(raw.name) \(raw.messageType)").inserted else {
                throw SDLSpecError(.duplicateDefinition, "\(raw.messageType) \(raw.name) is defined twice", line: raw.line)
            }
            guard let element = functionIDs?.element(named: raw.functionIDName) else {
                throw SDLSpecError(
                    .unknownFunctionID, "function \(raw.name) names \(raw.functionIDName), which is not an element of enum FunctionID",
                    line: raw.line)
            }
            guard let value = element.value, let id = UInt32(exactly: value) else {
                throw SDLSpecError(.unknownFunctionID, "FunctionID element \(raw.functionIDName) has no 32-bit value", line: raw.line)
            }
            resolvedFunctions.append(
                SDLFunction(
                    name: raw.name, functionID: id, messageType: raw.messageType,
                    parameters: try resolve(raw.parameters, owner: raw.name),
                    since: raw.since, until: raw.until, isDeprecated: raw.isDeprecated
                ))
        }
        return SDLCatalog(
            version: version, minVersion: minVersion, date: date, functions: resolvedFunctions, enums: enumsByName, structs: structsByName)
    }

    // MARK: Attributes

    private var line: Int { parser?.lineNumber ?? 0 }

    private func fail(_ error: SDLSpecError) {
        if failure == nil { failure = error }
        parser?.abortParsing()
    }

    private func required(_ attributes: [String: String], _ key: String, of element: String) throws(SDLSpecError) -> String {
        guard let value = attributes[key], !value.isEmpty else {
            throw SDLSpecError(.missingAttribute, "<\(element)> without \(key)", line: line)
        }
        return value
    }

    private func flag(_ attributes: [String: String], _ key: String, default defaultValue: Bool) throws(SDLSpecError) -> Bool {
        switch attributes[key] {
        case nil: return defaultValue
        case "true": return true
        case "false": return false
        case let other?: throw SDLSpecError(.invalidAttribute, "\(key)=\"\(other)\" is not true or false", line: line)
        }
    }

    private func integer(_ attributes: [String: String], _ key: String) throws(SDLSpecError) -> Int? {
        guard let text = attributes[key] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw SDLSpecError(.invalidAttribute, "\(key)=\"\(text)\" is not an integer", line: line)
        }
        return value
    }

    private func number(_ attributes: [String: String], _ key: String) throws(SDLSpecError) -> Double? {
        guard let text = attributes[key] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw SDLSpecError(.invalidAttribute, "\(key)=\"\(text)\" is not a number", line: line)
        }
        return value
    }

    /// `value` as decimal or `0x` hex; else `hexvalue` as hex.
    private func elementValue(_ attributes: [String: String]) throws(SDLSpecError) -> Int64? {
        if let text = attributes["value"]?.trimmingCharacters(in: .whitespaces) {
            let lower = text.lowercased()
            let parsed = lower.hasPrefix("0x") ? Int64(lower.dropFirst(2), radix: 16) : Int64(text)
            guard let parsed else { throw SDLSpecError(.invalidAttribute, "value=\"\(text)\" is not a number", line: line) }
            return parsed
        }
        if let text = attributes["hexvalue"]?.trimmingCharacters(in: .whitespaces) {
            guard let parsed = Int64(text, radix: 16) else {
                throw SDLSpecError(.invalidAttribute, "hexvalue=\"\(text)\" is not a hex number", line: line)
            }
            return parsed
        }
        return nil
    }

    private func parameter(_ a: [String: String]) throws(SDLSpecError) -> RawParameter {
        let name = try required(a, "name", of: "param")
        let typeName = try required(a, "type", of: "param")
        let parameter = SDLParameter(
            name: name, type: .string, isArray: try flag(a, "array", default: false),
            minSize: try integer(a, "minsize"), maxSize: try integer(a, "maxsize"),
            minValue: try number(a, "minvalue"), maxValue: try number(a, "maxvalue"),
            minLength: try integer(a, "minlength"), maxLength: try integer(a, "maxlength"),
            isMandatory: try flag(a, "mandatory", default: true), defaultValue: a["defvalue"],
            since: a["since"], until: a["until"], isDeprecated: try flag(a, "deprecated", default: false)
        )
        return RawParameter(parameter: parameter, typeName: typeName, line: line)
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        sawRoot = true
        open.append(elementName)
        if historyDepth > 0 || elementName == "history" {
            historyDepth += 1
            return
        }
        do throws(SDLSpecError) {
            switch (depth, elementName) {
            case (1, "interface"):
                sawInterface = true
                version = attributes["version"] ?? ""
                minVersion = attributes["minVersion"]
                date = attributes["date"]
            case (1, _):
                throw SDLSpecError(.missingInterface, "the root element is <\(elementName)>, not <interface>", line: line)
            case (2, "function"):
                let typeName = try required(attributes, "messagetype", of: "function")
                guard let messageType = SDLMessageType(rawValue: typeName) else {
                    throw SDLSpecError(
                        .unknownMessageType, "messagetype=\"\(typeName)\" is not request, response or notification", line: line)
                }
                container = .function(
                    RawFunction(
                        name: try required(attributes, "name", of: "function"),
                        functionIDName: try required(attributes, "functionID", of: "function"),
                        messageType: messageType, parameters: [],
                        since: attributes["since"], until: attributes["until"],
                        isDeprecated: try flag(attributes, "deprecated", default: false), line: line
                    ))
            case (2, "struct"):
                container = .structure(
                    RawStruct(
                        name: try required(attributes, "name", of: "struct"), parameters: [],
                        since: attributes["since"], until: attributes["until"],
                        isDeprecated: try flag(attributes, "deprecated", default: false), line: line
                    ))
            case (2, "enum"):
                container = .enumeration(
                    SDLEnum(
                        name: try required(attributes, "name", of: "enum"), elements: [],
                        since: attributes["since"], until: attributes["until"],
                        isDeprecated: try flag(attributes, "deprecated", default: false)
                    ), line: line)
            case (3, "param"):
                switch container {
                case .function(var function):
                    function.parameters.append(try parameter(attributes))
                    container = .function(function)
                case .structure(var structure):
                    structure.parameters.append(try parameter(attributes))
                    container = .structure(structure)
                default:
                    break
                }
            case (3, "element"):
                if case .enumeration(var definition, let start) = container {
                    definition.elements.append(
                        SDLEnum.Element(
                            name: try required(attributes, "name", of: "element"),
                            value: try elementValue(attributes),
                            since: attributes["since"], until: attributes["until"],
                            isDeprecated: try flag(attributes, "deprecated", default: false) ? true : nil
                        ))
                    container = .enumeration(definition, line: start)
                }
            case (4, "element") where open[2] == "param":
                let name = try required(attributes, "name", of: "element")
                func allow(_ parameters: inout [RawParameter]) {
                    guard !parameters.isEmpty else { return }
                    parameters[parameters.count - 1].parameter.allowedElements =
                        (parameters[parameters.count - 1].parameter.allowedElements ?? []) + [name]
                }
                switch container {
                case .function(var function):
                    allow(&function.parameters)
                    container = .function(function)
                case .structure(var structure):
                    allow(&structure.parameters)
                    container = .structure(structure)
                default:
                    break
                }
            default:
                break
            }
        } catch {
            fail(error)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail(SDLSpecError(.malformedXML, "not well-formed XML: \(parseError.localizedDescription)", line: line))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        defer { depth -= 1 }
        guard open.popLast() == elementName else {
            return fail(SDLSpecError(.malformedXML, "</\(elementName)> does not close the open element", line: line))
        }
        if historyDepth > 0 {
            historyDepth -= 1
            return
        }
        guard depth == 2 else { return }
        switch container {
        case .function(let function): functions.append(function)
        case .structure(let structure): structs.append(structure)
        case .enumeration(let definition, let start): enums.append((definition, start))
        case .none: break
        }
        container = .none
    }
}
