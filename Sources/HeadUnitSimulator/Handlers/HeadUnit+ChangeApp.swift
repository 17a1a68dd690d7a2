/// What a handler made of its app's state in ``HeadUnit/changeApp(_:resumable:_:)``.
enum AppChange {
    /// Refused: the app stays as it was (whatever the handler did to its copy), and the request
    /// is answered with the reply.
    case refused(Reply)
    /// Done: the changed app is written back, then `answer` makes the reply; it may act on the
    /// head unit, which holds the changed app by then (a new system context, a file request
    /// counted, images checked).
    case done(answer: (inout HeadUnit) -> Reply)

    /// Done, answered with `reply`.
    static func done(_ reply: Reply) -> AppChange {
        .done { _ in reply }
    }
}

extension HeadUnit {
    /// What every handler that changes its app does: takes the app registered on the request's
    /// session, or answers APPLICATION_NOT_REGISTERED (MOBILE_API.xml `Result`; Core answers so
    /// before any check of the request) without calling `change`; lets `change` check the
    /// request and change a copy of the app (with the head unit at hand for the rest: timers,
    /// capabilities, other apps); a refusal drops the copy, a done change is written back and,
    /// with `resumable` (menus, choice sets, subscriptions, global properties), noted as resumable
    /// data, so that OnHashChange follows the response (docs/protocol.md §k).
    mutating func changeApp(_ request: Request, resumable: Bool = false, _ change: (inout HeadUnit, inout AppState) -> AppChange) -> Reply {
        guard var app = apps[request.sessionID] else { return .result("APPLICATION_NOT_REGISTERED") }
        switch change(&self, &app) {
        case .refused(let reply):
            return reply
        case .done(let answer):
            apps[request.sessionID] = app
            if resumable { resumableDataChanged(session: request.sessionID, now: request.now) }
            return answer(&self)
        }
    }
}
