import Logging
import SDLClient
import SDLProtocol
import SDLSpec
import SDLTransport

/// Runs conformance cases one after the other against one head unit and reports each:
/// pass, fail (with why and the difference) or skip (with why), its time, its round trips and its
/// warnings.
///
/// Each case has its own deadline (``ConformanceCase/deadline`` × ``timeoutScale``); a case that
/// passes it fails with ``ConformanceFailure/Code/timedOut`` and the run goes on. The app under
/// test stays registered from case to case and is unregistered at the end.
public struct ConformanceRunner: Sendable {
    /// The head unit: `tcp://HOST:PORT` (SDL Core's TCP port for apps) or `ws://`/`wss://`.
    public var address: SDLTransportAddress
    public var driver: (any ConformanceDriver)?
    /// Multiplies every deadline and wait.
    public var timeoutScale: Double
    /// The app under test.
    public var app: SDLAppConfiguration
    public var catalog: SDLCatalog
    public var logger: Logger

    /// The app under test by default: a media app with every registration parameter a Smoke
    /// test sets (MOBILE_API.xml RegisterAppInterface).
    public static let defaultApp = SDLAppConfiguration(
        appName: "SDL Check",
        appID: "sdl-check",
        isMediaApplication: true,
        appHMIType: ["MEDIA"],
        ttsName: [SDLAppConfiguration.TTSChunk(text: "SDL Check")],
        vrSynonyms: ["SDL Check"],
        ngnMediaScreenAppName: "Check",
        dayColorScheme: [
            "primaryColor": ["red": 0, "green": 96, "blue": 160], "backgroundColor": ["red": 250, "green": 250, "blue": 250],
        ],
        nightColorScheme: [
            "primaryColor": ["red": 80, "green": 160, "blue": 220], "backgroundColor": ["red": 10, "green": 10, "blue": 10],
        ],
        deviceInfo: SDLAppConfiguration.DeviceInfo(hardware: "sdl-gateway check", os: "Linux", osVersion: "1")
    )

    public init(
        address: SDLTransportAddress, driver: (any ConformanceDriver)?, timeoutScale: Double = 1,
        app: SDLAppConfiguration = Self.defaultApp,
        catalog: SDLCatalog = .builtIn, logger: Logger
    ) {
        self.address = address
        self.driver = driver
        self.timeoutScale = timeoutScale
        self.app = app
        self.catalog = catalog
        self.logger = logger
    }

    /// Runs `cases` in order; `progress` gets each result as it is known, with how many are done.
    public func run(
        _ cases: [ConformanceCase], progress: @Sendable (_ done: Int, ConformanceResult) -> Void = { _, _ in }
    ) async -> ConformanceReport {
        let started = ContinuousClock.now
        let links = ConformanceLinks(address: address, logger: logger)
        let context = ConformanceContext(app: app, driver: driver, timeoutScale: timeoutScale, links: links, catalog: catalog)
        let results = await withTaskGroup(of: Void.self, returning: [ConformanceResult].self) { group in
            group.addTask { await links.serve() }
            var results: [ConformanceResult] = []
            for conformanceCase in cases {
                let result = await run(conformanceCase, in: context)
                results.append(result)
                progress(results.count, result)
            }
            // The run's end is no case: an UnregisterAppInterface left unanswered here fails nothing.
            try? await context.closeLink()
            links.finish()
            // A link a case left open (its deadline passed before it closed it) is cut.
            group.cancelAll()
            return results
        }
        return ConformanceReport(
            headUnit: address.description, driver: driver?.name, results: results, duration: ContinuousClock.now - started)
    }

    private func run(_ conformanceCase: ConformanceCase, in context: ConformanceContext) async -> ConformanceResult {
        let started = ContinuousClock.now
        func result(
            _ outcome: ConformanceResult.Outcome, _ reason: String? = nil, code: String? = nil, difference: String? = nil
        )
            -> ConformanceResult
        {
            ConformanceResult(
                id: conformanceCase.id, title: conformanceCase.title, outcome: outcome, reason: reason, failureCode: code,
                difference: difference, duration: ContinuousClock.now - started, roundTrips: context.takeRoundTrips(),
                warnings: context.takeWarnings())
        }
        if conformanceCase.needsDriver, driver == nil {
            return result(.skip, ConformanceSkip.noDriver.reason)
        }
        do {
            try await withDeadline(context.scaled(conformanceCase.deadline), "the case") {
                try await conformanceCase.run(context)
            }
            return result(.pass)
        } catch let skip as ConformanceSkip {
            return result(.skip, skip.reason)
        } catch let failure as ConformanceFailure {
            return result(.fail, failure.message, code: failure.code.rawValue, difference: failure.difference)
        } catch {
            return result(.fail, "\(error)", code: "error")
        }
    }
}
