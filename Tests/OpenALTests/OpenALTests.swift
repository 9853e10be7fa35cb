import OpenAL
import Testing

/// Every OpenAL suite nests here: OpenAL's current context is process-wide, so the suites run one at a time.
@Suite(.serialized) struct OpenALTests {}
