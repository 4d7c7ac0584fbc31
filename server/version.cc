// placeholder so the server library has a source until the transport lands
namespace hotlines { const char *version() { return HOTLINES_VERSION; } }
