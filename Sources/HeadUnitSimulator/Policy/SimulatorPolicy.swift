import SDLProtocol
import SDLSpec

/// Which RPCs an app may use in which HMI level, as SDL Core's policy table decides.
///
/// - ``Mode/open``: every function in every HMI level, vehicle data included (a policy table
///   that grants the app everything).
/// - ``Mode/sdlDefault``: SDL Core's `"default"` entry of `sdl_preloaded_pt.json`, which every
///   appID that is not in the table gets: functional group Base-4 only (docs/protocol.md §e).
///   A function not in Base-4 (GetVehicleData, SubscribeVehicleData, OnVehicleData, SendLocation,
///   DialNumber, ButtonPress, the remote-control and app-service RPCs, …) is DISALLOWED in every
///   level.
///
/// The policy governs requests from the app and notifications in either direction; responses
/// always pass (the request was checked).
public struct SimulatorPolicy: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case open
        case sdlDefault = "default"
    }

    /// The HMI levels in the order SDL Core's preloaded policy table lists them.
    public static let allHMILevels = ["BACKGROUND", "FULL", "LIMITED", "NONE"]
    static let backgroundAndUp = ["BACKGROUND", "FULL", "LIMITED"]
    static let limitedAndFull = ["FULL", "LIMITED"]
    static let fullOnly = ["FULL"]

    /// Base-4 of SDL Core's `sdl_preloaded_pt.json`: function name → allowed HMI levels.
    public static let base4: [String: [String]] = {
        var table: [String: [String]] = [:]
        for name in [
            "RegisterAppInterface", "UnregisterAppInterface", "ChangeRegistration", "PutFile", "DeleteFile", "ListFiles",
            "SetAppIcon", "SetDisplayLayout", "SetGlobalProperties", "ResetGlobalProperties", "GetSystemCapability",
            "SystemRequest", "EncodedSyncPData",
            "OnHMIStatus", "OnAppInterfaceUnregistered", "OnDriverDistraction", "OnEncodedSyncPData", "OnHashChange",
            "OnLanguageChange", "OnPermissionsChange", "OnSystemCapabilityUpdated", "OnSystemRequest",
        ] {
            table[name] = allHMILevels
        }
        for name in [
            "AddCommand", "AddSubMenu", "DeleteCommand", "DeleteSubMenu", "CreateInteractionChoiceSet",
            "DeleteInteractionChoiceSet", "CancelInteraction", "CloseApplication", "EndAudioPassThru", "GenericResponse",
            "OnAppCapabilityUpdated", "OnAudioPassThru", "OnButtonEvent", "OnButtonPress", "OnCommand",
            "OnSubtleAlertPressed", "OnUpdateFile", "OnUpdateSubMenu", "SetMediaClockTimer", "Show", "SubscribeButton",
            "UnsubscribeButton", "SubtleAlert",
        ] {
            table[name] = backgroundAndUp
        }
        for name in ["Alert", "PerformAudioPassThru", "PerformInteraction", "Speak"] {
            table[name] = limitedAndFull
        }
        for name in ["ScrollableMessage", "ShowAppMenu", "Slider"] {
            table[name] = fullOnly
        }
        return table
    }()

    /// Functions whose parameters are vehicle data names (their `parameterPermissions`).
    public static let vehicleDataFunctions: Set<String> = [
        "GetVehicleData", "SubscribeVehicleData", "UnsubscribeVehicleData", "OnVehicleData",
    ]

    public var mode: Mode

    public init(_ mode: Mode) {
        self.mode = mode
    }

    public static let open = SimulatorPolicy(.open)
    public static let sdlDefault = SimulatorPolicy(.sdlDefault)

    /// Whether the app may use `function` in `hmiLevel` (`FULL`, `LIMITED`, `BACKGROUND`, `NONE`).
    /// The head unit answers a refused request with DISALLOWED and does not send a refused
    /// notification.
    public func isAllowed(_ function: String, messageType: SDLMessageType, hmiLevel: String) -> Bool {
        if messageType == .response { return true }
        return allowedLevels(function).contains(hmiLevel)
    }

    /// The HMI levels in which `function` is allowed, in policy-table order; empty when never.
    public func allowedLevels(_ function: String) -> [String] {
        switch mode {
        case .open: return Self.allHMILevels
        case .sdlDefault: return Self.base4[function] ?? []
        }
    }

    /// OnPermissionsChange's `permissionItem` array: one `PermissionItem` per allowed function,
    /// sorted by name, with nothing user-disallowed.
    ///
    /// Open lists every request and notification function of `catalog`; the vehicle data
    /// functions list the catalog's vehicle data names in `parameterPermissions.allowed`.
    /// Default lists the Base-4 functions the catalog has.
    public func permissionItems(catalog: SDLCatalog) -> SDLJSON {
        var names = Set<String>()
        for function in catalog.functions where function.messageType != .response {
            names.insert(function.name)
        }
        if mode == .sdlDefault {
            names.formIntersection(Self.base4.keys)
            // GenericResponse has only a response in the catalog but is a Base-4 entry.
            if catalog.function(named: "GenericResponse", messageType: .response) != nil { names.insert("GenericResponse") }
        }
        var items: [SDLJSON] = []
        for name in names.sorted() {
            let levels = allowedLevels(name)
            guard !levels.isEmpty else { continue }
            var parameters: [SDLJSON] = []
            if Self.vehicleDataFunctions.contains(name) {
                parameters = Self.vehicleDataNames(catalog: catalog).map { .string($0) }
            }
            items.append([
                "rpcName": .string(name),
                "hmiPermissions": ["allowed": .array(levels.map { .string($0) }), "userDisallowed": []],
                "parameterPermissions": ["allowed": .array(parameters), "userDisallowed": []],
            ])
        }
        return .array(items)
    }

    /// The complete OnPermissionsChange notification parameters.
    public func onPermissionsChange(catalog: SDLCatalog) -> SDLJSON {
        ["permissionItem": permissionItems(catalog: catalog)]
    }

    /// The vehicle data names of `catalog`: GetVehicleData's request parameters, sorted (at most
    /// 100, the bound of `ParameterPermissions.allowed`).
    public static func vehicleDataNames(catalog: SDLCatalog) -> [String] {
        let names = catalog.function(named: "GetVehicleData", messageType: .request)?.parameters.map(\.name) ?? []
        return Array(names.sorted().prefix(100))
    }
}
