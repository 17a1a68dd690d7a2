import HTTPAPISupport
import Hummingbird
import SDLProtocol
import SDLSpec

/// `GET /v1/spec` (the RPC catalog), `GET /v1/spec/functions/{name}` (one request's
/// parameters and a fill-in template that passes validation) and `GET /v1/spec/types/{name}`
/// (an enum's elements or a struct's members: what a form for the parameters needs).
struct SpecRoutes: Sendable {
    let catalog: SDLCatalog

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        let summary: SDLJSON = [
            "version": .string(catalog.version),
            "functions": .array(
                catalog.functions.map {
                    ["name": .string($0.name), "functionID": .int(Int64($0.functionID)), "messageType": .string($0.messageType.rawValue)]
                }
            ),
            "enums": .array(catalog.enums.keys.sorted().map(SDLJSON.string)),
            "structs": .array(catalog.structs.keys.sorted().map(SDLJSON.string)),
        ]
        router.get("v1/spec") { _, _ -> Response in
            HTTPBody.response(summary)
        }
        router.get("v1/spec/types/:name") { _, context -> Response in
            let name = try context.parameters.decoded("name")
            guard let type = Self.type(name, in: catalog) else {
                throw GatewayError(.notFound, "\(name) is not an enum or a struct of the RPC spec \(catalog.version)")
            }
            return HTTPBody.response(type)
        }
        router.get("v1/spec/functions/:name") { request, context -> Response in
            let name = try context.parameters.decoded("name")
            guard let function = catalog.function(named: name, messageType: .request) else {
                throw GatewayError(.notFound, "\(name) is not a request of the RPC spec \(catalog.version)")
            }
            let optional = try Query.bool(request, "optional", default: false)
            return HTTPBody.response([
                "name": .string(function.name),
                "functionID": .int(Int64(function.functionID)),
                "messageType": .string(function.messageType.rawValue),
                "parameters": .array(function.parameters.map(Self.json)),
                "template": catalog.template(for: function, includeOptional: optional),
            ])
        }
    }

    /// An enum `{name, kind: "enum", elements}` or a struct `{name, kind: "struct", parameters}`.
    static func type(_ name: String, in catalog: SDLCatalog) -> SDLJSON? {
        if let enumeration = catalog.enums[name] {
            return ["name": .string(name), "kind": "enum", "elements": .array(enumeration.elementNames.map(SDLJSON.string))]
        }
        if let structure = catalog.structs[name] {
            return ["name": .string(name), "kind": "struct", "parameters": .array(structure.parameters.map(json))]
        }
        return nil
    }

    static func json(_ parameter: SDLParameter) -> SDLJSON {
        var members: [String: SDLJSON] = [
            "name": .string(parameter.name),
            "type": .string(parameter.type.specName),
            "array": .bool(parameter.isArray),
            "mandatory": .bool(parameter.isMandatory),
        ]
        if let value = parameter.minSize { members["minSize"] = .int(Int64(value)) }
        if let value = parameter.maxSize { members["maxSize"] = .int(Int64(value)) }
        if let value = parameter.minValue { members["minValue"] = .double(value) }
        if let value = parameter.maxValue { members["maxValue"] = .double(value) }
        if let value = parameter.minLength { members["minLength"] = .int(Int64(value)) }
        if let value = parameter.maxLength { members["maxLength"] = .int(Int64(value)) }
        if let value = parameter.defaultValue { members["defaultValue"] = .string(value) }
        return .object(members)
    }
}
