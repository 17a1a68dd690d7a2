import HTTPAPISupport
import Hummingbird
import SDLManagers
import SDLProtocol

/// What the gateway knows of its apps, so that the control APIs under `serve` (the simulator's
/// at `/v1/simulator`, the headless HMI's at `/v1/hmi`) take its names as well as the head
/// unit's: an app by the gateway's app id, and a menu entry, choice or soft button by the id the
/// app declared to the gateway's managers (`PUT /v1/apps/{id}/menu`, `POST …/interactions`,
/// `PUT …/screen`, `POST …/alerts`). Standalone (`simulate --control`, `hmi --control`) it is
/// ``none``: only the head unit's names.
public struct GatewayNames: Sendable {
    /// The SDL appID (policy app id) of the gateway's app with this id, if any.
    public var sdlAppID: @Sendable (String) -> String?
    /// The ids of the gateway's apps that register with this SDL appID.
    public var apps: @Sendable (String) -> [String]
    /// The declared ids of the gateway's app with this id, if any.
    public var declaredIDs: @Sendable (String) -> SDLDeclaredIDs?

    public init(
        sdlAppID: @escaping @Sendable (String) -> String?,
        apps: @escaping @Sendable (String) -> [String] = { _ in [] },
        declaredIDs: @escaping @Sendable (String) -> SDLDeclaredIDs? = { _ in nil }
    ) {
        self.sdlAppID = sdlAppID
        self.apps = apps
        self.declaredIDs = declaredIDs
    }

    /// No gateway: the control API serves on its own.
    public static let none = GatewayNames(sdlAppID: { _ in nil })

    /// The gateway's apps behind the head unit's app with `sdlAppID`, which a path named
    /// `named`: that one app when `named` is a gateway app id of it, else every gateway app
    /// registering with the SDL appID.
    func gatewayApps(named: String, sdlAppID: String) -> [String] {
        if let own = self.sdlAppID(named), own.lowercased() == sdlAppID.lowercased() { return [named] }
        return apps(sdlAppID)
    }

    /// The number `id` stands for as a `kind` of the head unit's app behind `gatewayApps`: an
    /// integer is itself, a string the declared id of that name (or, when none is declared, its
    /// integer value). A string that is both a declared id and another number, or a declared id
    /// of two numbers, is ambiguous (400 `ambiguous-name`); an unknown one is 404
    /// `command-not-found` for a command, else 422 `invalid-value`; the problem lists what is
    /// accepted.
    func number(_ id: ControlID, _ kind: SDLDeclaredIDs.Kind, gatewayApps: [String]) throws -> Int64 {
        let name: String
        switch id {
        case .number(let number): return number
        case .name(let text): name = text
        }
        let declared = gatewayApps.compactMap { declaredIDs($0) }
        let numbers = declared.reduce(into: Set<Int>()) { $0.formUnion($1.numbers(of: name, kind)) }
        let integer = Int64(name)
        let field = Self.field(of: kind)
        if numbers.count == 1, let number = numbers.first, integer == nil || integer == Int64(number) {
            return Int64(number)
        }
        if numbers.isEmpty, let integer { return integer }
        if !numbers.isEmpty {
            let meanings = numbers.sorted().map { "\(field) \($0)" } + (integer.map { ["\(field) \($0)"] } ?? [])
            throw HTTPProblem(
                status: .badRequest, code: "ambiguous-name", title: "The name is ambiguous",
                detail: "\(name) names \(Set(meanings).sorted().joined(separator: " and ")); use the number"
            )
        }
        let names = Set(declared.flatMap { $0.names(kind) }).sorted()
        let accepted =
            "\(Self.noun(of: kind))s are named by their \(field) (an integer) or, under serve, by the id the app declared"
            + (names.isEmpty ? " (none is declared now)" : " (\(names.joined(separator: ", ")))")
        if kind == .command {
            throw HTTPProblem(
                status: .notFound, code: "command-not-found", title: "No such command", detail: "no command \(name): \(accepted)")
        }
        throw HTTPProblem.invalidValue("no \(Self.noun(of: kind)) \(name): \(accepted)")
    }

    static func field(of kind: SDLDeclaredIDs.Kind) -> String {
        switch kind {
        case .command: "cmdID"
        case .choice: "choiceID"
        case .softButton: "softButtonID"
        }
    }

    static func noun(of kind: SDLDeclaredIDs.Kind) -> String {
        switch kind {
        case .command: "command"
        case .choice: "choice"
        case .softButton: "soft button"
        }
    }
}

/// A command, choice or soft button as a control path or body names it: its number, or a name
/// (a path segment, a JSON string) that ``GatewayNames/number(_:_:gatewayApps:)`` resolves.
enum ControlID: Sendable, Hashable {
    case number(Int64)
    case name(String)

    /// The id in `body[key]`: an integer, or a non-empty string; nil when absent.
    static func from(_ body: SDLJSON, _ key: String) throws -> ControlID? {
        guard let value = body[key] else { return nil }
        if let number = value.intValue { return .number(number) }
        if case .string(let text) = value, !text.isEmpty { return .name(text) }
        throw HTTPProblem.invalidBody("\(key) must be an integer or a declared id (a string)")
    }
}

extension GatewayNames {
    /// The `softButtonID` a button press names: with the app (`gatewayApps` of it) a declared id
    /// too, without one only a number (a declared id belongs to an app). A number is a SoftButton's
    /// `softButtonID`, 0…65535 (RPC spec, SoftButton), whatever button the press is for.
    func softButtonNumber(_ id: ControlID, gatewayApps: [String]?) throws -> Int64 {
        if gatewayApps == nil, case .name(let text) = id, Int64(text) == nil {
            throw HTTPProblem.invalidBody("softButtonID \(text) is a declared id: name its app with appID")
        }
        let number = try number(id, .softButton, gatewayApps: gatewayApps ?? [])
        guard (0...65_535).contains(number) else {
            throw HTTPProblem.invalidValue("softButtonID \(number) is outside 0...65535 (a SoftButton's softButtonID)")
        }
        return number
    }
}

/// The members both control APIs' button presses and interaction answers take alike.
enum ControlBody {
    /// A Slider's answer, `sliderPosition`: 1...26 (the Slider's `numTicks` bounds, RPC spec), checked
    /// whatever the open interaction is, so a bad value is refused alike before anything is open.
    static func sliderPosition(_ body: SDLJSON) throws -> Int64? {
        guard let position = try SimulatorControlRoutes.int(body, "sliderPosition") else { return nil }
        guard (1...26).contains(position) else {
            throw HTTPProblem.invalidValue("sliderPosition \(position) is outside 1...26 (a Slider has at most 26 ticks)")
        }
        return position
    }

    /// An app named in a body: a string (any of its names), or an integer (Core's HMI app id, or
    /// an SDL appID of digits); nil when absent.
    static func appName(_ body: SDLJSON, _ key: String) throws -> String? {
        guard let value = body[key] else { return nil }
        if let number = value.intValue { return String(number) }
        if case .string(let text) = value { return text }
        throw HTTPProblem.invalidBody("\(key) must be an app's name: its SDL appID, Core's HMI app id or the gateway's app id")
    }

    /// The soft button of a press: `softButtonID`, or `customButtonID` as HMI_API.xml names it
    /// (the headless HMI's first name for it), not both.
    static func softButton(_ body: SDLJSON) throws -> ControlID? {
        let soft = try ControlID.from(body, "softButtonID")
        let custom = try ControlID.from(body, "customButtonID")
        if soft != nil, custom != nil { throw HTTPProblem.invalidBody("give softButtonID or customButtonID (the same), not both") }
        return soft ?? custom
    }
}
