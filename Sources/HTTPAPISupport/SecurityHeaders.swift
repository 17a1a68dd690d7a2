import HTTPTypes

/// The headers every response of the gateway and of the control APIs carries, so that a browser
/// treats them as what they are (SECURITY.md, "What a browser can do"):
/// - `X-Content-Type-Options: nosniff`: a response is only ever its declared type (no JSON or
///   capture run as a script);
/// - `Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY`: no other page
///   can frame the UI and trick a user holding a token into clicking its buttons;
/// - `Referrer-Policy: no-referrer`: a `?ticket=` or an app id in the page's URL never leaves in a
///   `Referer`.
///
/// HSTS is left to the TLS-terminating proxy: the gateway itself speaks plain HTTP.
public enum SecurityHeaders {
    public static let fields: [(HTTPField.Name, String)] = [
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (HTTPField.Name("Content-Security-Policy")!, "frame-ancestors 'none'"),
        (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
    ]

    /// Sets the headers on `headers`, replacing any value a route set, except a route's own
    /// `Content-Security-Policy` (a file served with `sandbox`), which is kept with
    /// `frame-ancestors 'none'` added.
    public static func apply(to headers: inout HTTPFields) {
        let policyName = HTTPField.Name("Content-Security-Policy")!
        let routePolicy = headers[policyName]
        for (name, value) in fields { headers[name] = value }
        if let routePolicy, !routePolicy.isEmpty {
            headers[policyName] = routePolicy.contains("frame-ancestors") ? routePolicy : "\(routePolicy); frame-ancestors 'none'"
        }
    }
}
