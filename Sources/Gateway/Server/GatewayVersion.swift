/// The version of sdl-gateway: what `sdl-gateway --version` prints, and the `info.version` of
/// `openapi.yaml` (a test keeps the two equal).
public enum GatewayVersion {
    public static let current = "0.1.0"
}
