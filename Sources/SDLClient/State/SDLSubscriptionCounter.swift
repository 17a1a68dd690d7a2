/// Reference-counted subscriptions (buttons or vehicle data) shared by several owners (browser
/// clients, scripts) over one SDL app: SDL Core knows one subscription per name, so only the
/// first owner of a name needs SubscribeButton / SubscribeVehicleData, and only the last owner's
/// leaving needs the Unsubscribe (MOBILE_API.xml FunctionIDs 18–21; docs/protocol.md §g, §k
/// "Resumption": re-subscribing after reconnect is safe, IGNORED means already there).
///
/// If the head unit refuses a Subscribe, the caller undoes it with ``unsubscribe(_:owner:)``.
public struct SDLSubscriptionCounter: Sendable, Hashable {
    private var owners: [String: Set<String>] = [:]

    public init() {}

    /// Adds `owner` to each name. Returns the names that had no owner before, which need an SDL
    /// Subscribe request, in the order given and without duplicates.
    public mutating func subscribe(_ names: [String], owner: String) -> [String] {
        var fresh: [String] = []
        for name in names {
            let wasEmpty = owners[name, default: []].isEmpty
            let (inserted, _) = owners[name, default: []].insert(owner)
            if inserted, wasEmpty { fresh.append(name) }
        }
        return fresh
    }

    /// Removes `owner` from each name. Returns the names left with no owner, which need an SDL
    /// Unsubscribe request, in the order given and without duplicates. Names the owner did not
    /// hold are left alone.
    public mutating func unsubscribe(_ names: [String], owner: String) -> [String] {
        var gone: [String] = []
        for name in names {
            guard owners[name]?.remove(owner) != nil else { continue }
            if owners[name]?.isEmpty == true {
                owners[name] = nil
                gone.append(name)
            }
        }
        return gone
    }

    /// Removes `owner` from every name (a client went away); returns the names now unowned, sorted.
    public mutating func unsubscribeAll(owner: String) -> [String] {
        unsubscribe(owners.keys.filter { owners[$0]?.contains(owner) == true }.sorted(), owner: owner)
    }

    /// Forgets `names` whatever their owners (the head unit no longer has them).
    public mutating func drop(_ names: [String]) {
        for name in names { owners[name] = nil }
    }

    /// Every subscribed name, sorted: what to subscribe again after a reconnect.
    public var all: [String] { owners.keys.sorted() }

    /// The owners of `name`.
    public func owners(of name: String) -> Set<String> { owners[name] ?? [] }

    /// How many owners hold `name`.
    public func count(of name: String) -> Int { owners[name]?.count ?? 0 }
}
