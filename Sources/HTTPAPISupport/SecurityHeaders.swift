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
/// A route may set a stricter `Content-Security-Policy` of its own (the simulator's stored files:
/// `sandbox`); it is kept, with `frame-ancestors 'none'` added.
///
/// HSTS is left to the TLS-terminating proxy: the gateway itself speaks plain HTTP.
public enum SecurityHeaders {
    public static let fields: [(HTTPField.Name, String)] = [
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (.contentSecurityPolicy, "frame-ancestors 'none'"),
        (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
    ]

    /// Sets the headers on `headers`, replacing any value a route set, but for a route's own
    /// `Content-Security-Policy`, which keeps its directives and gains `frame-ancestors 'none'`.
    public static func apply(to headers: inout HTTPFields) {
        let ownPolicy = headers[.contentSecurityPolicy]
        for (name, value) in fields { headers[name] = value }
        if let ownPolicy, !ownPolicy.isEmpty {
            headers[.contentSecurityPolicy] = ownPolicy.contains("frame-ancestors") ? ownPolicy : ownPolicy + "; frame-ancestors 'none'"
        }
    }
}
