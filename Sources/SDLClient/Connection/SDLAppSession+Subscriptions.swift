import SDLProtocol
import SDLSpec

/// Subscriptions shared by several owners (browser clients, scripts) of one app: SDL Core keeps
/// one subscription per button or vehicle data name, so only the first owner of a name sends
/// SubscribeButton / SubscribeVehicleData and only the last owner to leave sends the
/// Unsubscribe (``SDLSubscriptionCounter``; MOBILE_API.xml FunctionIDs 18–21). What the owners
/// hold is what a reconnect restores.
extension SDLAppSession {
    /// What a subscription call did: the head unit's response, or nil when no request was
    /// needed (the names were already held, or are still held by another owner).
    public struct SubscriptionOutcome: Sendable {
        public var response: SDLRPCMessage?
        /// The names the request was sent for.
        public var sent: [String]
    }

    /// Subscribes `owner` to vehicle data `names`; SubscribeVehicleData goes for the names no
    /// owner held. A refused request (`success: false` or an error) gives them back.
    public func subscribe(vehicleData names: [String], owner: String) async throws -> SubscriptionOutcome {
        try checkParameters("SubscribeVehicleData", Self.flags(names))
        return try await change(names, owner: owner, subscribe: true, counter: \.vehicleData) { fresh in
            try await self.send("SubscribeVehicleData", Self.flags(fresh))
        }
    }

    /// Removes `owner` from vehicle data `names`; UnsubscribeVehicleData goes for the names it
    /// was the last owner of.
    public func unsubscribe(vehicleData names: [String], owner: String) async throws -> SubscriptionOutcome {
        try checkParameters("UnsubscribeVehicleData", Self.flags(names))
        return try await change(names, owner: owner, subscribe: false, counter: \.vehicleData) { gone in
            try await self.send("UnsubscribeVehicleData", Self.flags(gone))
        }
    }

    /// Subscribes `owner` to a button; SubscribeButton goes when no owner held it.
    public func subscribe(button name: String, owner: String) async throws -> SubscriptionOutcome {
        try checkParameters("SubscribeButton", ["buttonName": .string(name)])
        return try await change([name], owner: owner, subscribe: true, counter: \.buttons) { _ in
            try await self.send("SubscribeButton", ["buttonName": .string(name)])
        }
    }

    /// Removes `owner` from a button; UnsubscribeButton goes when it was the last owner.
    public func unsubscribe(button name: String, owner: String) async throws -> SubscriptionOutcome {
        try checkParameters("UnsubscribeButton", ["buttonName": .string(name)])
        return try await change([name], owner: owner, subscribe: false, counter: \.buttons) { _ in
            try await self.send("UnsubscribeButton", ["buttonName": .string(name)])
        }
    }

    /// Names are checked against the spec before any owner holds them, even when no request
    /// would be sent.
    private func checkParameters(_ function: String, _ parameters: SDLJSON) throws(SDLClientError) {
        let catalog = configuration.catalog
        guard let spec = catalog.function(named: function, messageType: .request) else {
            throw SDLClientError(.unknownFunction, "\(function) is not a request of the RPC spec")
        }
        if let issue = catalog.validate(parameters, against: spec).first {
            throw SDLClientError(.invalidParameters, "\(function) \(issue.message)")
        }
    }

    static func flags(_ names: [String]) -> SDLJSON {
        .object(Dictionary(names.map { ($0, SDLJSON.bool(true)) }, uniquingKeysWith: { first, _ in first }))
    }
}
