import NIOCore
import SDLProtocol
import SDLSpec

extension SDLConnectionStateMachine {
    /// A request from a caller: checked, counted and framed, or refused locally with nothing
    /// sent. Returns its correlation id when it was sent (for ``cancel(correlationID:now:)``).
    ///
    /// Refusals, in order: ``SDLClientError/Code/unknownFunction``,
    /// ``SDLClientError/Code/invalidParameters`` (when validating), ``SDLClientError/Code/notConnected``
    /// (not registered), ``SDLClientError/Code/notPermitted`` (permission preflight at the current
    /// HMI level), ``SDLClientError/Code/tooManyPendingRequests``, ``SDLClientError/Code/rateLimited``.
    public mutating func send(
        _ function: String, _ parameters: SDLJSON, options: SDLRequestOptions, waiter: Waiter, now: NIODeadline
    ) -> (correlationID: UInt32?, actions: [Action]) {
        do throws(SDLClientError) {
            let catalog = configuration.catalog
            guard let spec = catalog.function(named: function, messageType: .request) else {
                throw SDLClientError(.unknownFunction, "\(function) is not a request of the RPC spec")
            }
            if options.validate ?? configuration.validatesRequests, let issue = catalog.validate(parameters, against: spec).first {
                throw SDLClientError(.invalidParameters, "\(function): \(issue.message)")
            }
            guard isRegistered else {
                let why = closeError.map { " (\($0))" } ?? ""
                throw SDLClientError(.notConnected, "the app is not registered\(why)")
            }
            let (correlationID, actions) = try enqueue(
                spec, parameters, options: options, requester: .caller(waiter),
                checkPermissions: options.checkPermissions ?? configuration.checksPermissions, now: now
            )
            return (correlationID, actions)
        } catch {
            return (nil, [.fail(waiter, error)])
        }
    }

    /// The caller of the request with `correlationID` went away: its pending slot is freed now and
    /// it fails with ``SDLClientError/Code/cancelled``; a late response is only logged. Its
    /// rate-limit count stays: the request went out and the head unit counts it in its own
    /// window (docs/protocol.md §e), so giving it back could let the app exceed Core's limit.
    public mutating func cancel(correlationID: UInt32, now: NIODeadline) -> [Action] {
        guard let entry = pending[correlationID], case .caller(let waiter) = entry.waiter else { return [] }
        _ = pending.remove(correlationID: correlationID)
        return [
            .fail(waiter, SDLClientError(.cancelled, "\(entry.function) (correlation id \(correlationID)) was cancelled by its caller"))
        ]
    }

    /// Preflight, rate limit, pending slot, frames. A request refused after the rate limiter
    /// counted it is given back, so only requests that go out are counted.
    mutating func enqueue(
        _ spec: SDLFunction, _ parameters: SDLJSON, options: SDLRequestOptions, requester: Requester,
        checkPermissions: Bool, now: NIODeadline
    ) throws(SDLClientError) -> (UInt32, [Action]) {
        let level = tracker.hmiLevel.rawValue
        if checkPermissions {
            try tracker.preflight(function: spec.name, hmiLevel: level)
        }
        guard pending.count < pending.maximumPending else {
            throw SDLClientError(
                .tooManyPendingRequests,
                "\(spec.name) not sent: \(pending.count) requests already wait for responses (limit \(pending.maximumPending))"
            )
        }
        try limiter.acquire(hmiLevel: level, now: now)
        let deadline = configuration.deadlines.deadline(for: spec.name, parameters: parameters, now: now, override: options.timeout)
        let correlationID: UInt32
        do throws(SDLClientError) {
            correlationID = try pending.add(function: spec.name, functionID: spec.functionID, deadline: deadline, waiter: requester)
        } catch {
            limiter.release(hmiLevel: level, acquiredAt: now)
            throw error
        }
        let rpc = SDLRPCMessage(
            rpcType: .request, functionID: spec.functionID, correlationID: correlationID, parameters: parameters, bulkData: options.bulkData
        )
        let frames: [SDLFrame]
        do throws(SDLClientError) {
            frames = try session.send(rpc, now: now)
        } catch {
            _ = pending.remove(correlationID: correlationID)
            limiter.release(hmiLevel: level, acquiredAt: now)
            throw error
        }
        return (
            correlationID,
            [.write(frames), .publish(tracker.record(.sent, rpc, now: now))] + tracker.sent(rpc, now: now).map(Action.publish)
        )
    }
}
