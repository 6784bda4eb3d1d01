/* The GBA contender of `gba scale`: the switch of the team's DESIGN.md (outside this
 * repository) sections 1 and 4 as S4U actors.
 *
 * Usage: gba-model N WARMUP ITERS LINK_LAT_NS LINK_BW_BPS PCIE_NS SWITCH_NS ARRIVAL_NS
 *                  RELEASE_NS PORTS
 *
 * Platform (built here, no XML): N hosts, each joined by its own link to a GBA switch of
 * PORTS ports. When N > PORTS the switches form a tree: ceil(N / PORTS) leaf GBAs, each
 * serving up to PORTS hosts, join a root GBA by one link each (and so on up, should the root
 * need more than PORTS ports). A leaf's count completes when its own hosts have arrived; it
 * then sends one arrival up and waits for its parent's release before releasing its hosts,
 * so the tree behaves as one switch with more ports and a longer path.
 *
 * One episode, as the model times it:
 *   host:   PCIE_NS        the arrival store crosses PCIe to the host adapter (posted write)
 *           link           an 8-byte arrival over the host's own link
 *   switch: ARRIVAL_NS     per arrival, serialised through one aggregation unit (conservative:
 *                          a real switch takes arrivals on its ports in parallel)
 *           SWITCH_NS      once per episode: the pipeline from the last arrival to the release
 *           RELEASE_NS     per member, the release writes issued one after another by one DMA
 *                          engine; each then travels its member's link in parallel
 *   host:   PCIE_NS        the release DMA write crosses PCIe into the flag's memory; the
 *                          waiting core sees it on its next poll
 * Host 0 prints the mean of ITERS back-to-back episodes after WARMUP untimed ones, in
 * simulated nanoseconds: "latency_ns <value>". The run is deterministic. */
#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Params {
  long n;
  long warmup;
  long iters;
  double link_lat;
  double link_bw;
  double pcie;
  double switch_pipeline;
  double arrival;
  double release;
  long ports;
};

Params params;
int token = 1;                  // every message carries a pointer to this: content is irrelevant
constexpr double MESSAGE = 8;   // bytes: an arrival word, a release sequence

sg4::Mailbox* inbox(const std::string& node) { return sg4::Mailbox::by_name("in:" + node); }
sg4::Mailbox* releases(const std::string& node) { return sg4::Mailbox::by_name("rel:" + node); }

void send(sg4::Mailbox* to) { to->put_init(&token, MESSAGE)->detach(); }

/* One member host: arrive, wait for the release, repeat. */
void host(std::string self, std::string parent)
{
  double start = 0;
  for (long episode = 0; episode < params.warmup + params.iters; episode++) {
    if (episode == params.warmup)
      start = sg4::Engine::get_clock();
    sg4::this_actor::sleep_for(params.pcie);
    send(inbox(parent));
    releases(self)->get<int>();
    sg4::this_actor::sleep_for(params.pcie);
  }
  if (self == "h0")
    std::printf("latency_ns %.1f\n", (sg4::Engine::get_clock() - start) / params.iters * 1e9);
}

/* One GBA switch: count its children's arrivals, go up if it has a parent, release. */
void gba(std::string self, std::string parent, std::vector<std::string> children)
{
  for (long episode = 0; episode < params.warmup + params.iters; episode++) {
    for (size_t i = 0; i < children.size(); i++) {
      inbox(self)->get<int>();
      sg4::this_actor::sleep_for(params.arrival);
    }
    sg4::this_actor::sleep_for(params.switch_pipeline);
    if (!parent.empty()) {
      send(inbox(parent));
      releases(self)->get<int>();
    }
    for (const auto& child : children) {
      sg4::this_actor::sleep_for(params.release);
      send(releases(child));
    }
  }
}

long parse(const char* text, const char* what)
{
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < 0) {
    std::fprintf(stderr, "gba-model: %s must be a non-negative integer, not '%s'\n", what, text);
    std::exit(2);
  }
  return value;
}

double parse_f(const char* text, const char* what)
{
  char* end = nullptr;
  double value = std::strtod(text, &end);
  if (*text == '\0' || *end != '\0' || !(value >= 0)) {
    std::fprintf(stderr, "gba-model: %s must be a non-negative number, not '%s'\n", what, text);
    std::exit(2);
  }
  return value;
}

} // namespace

int main(int argc, char** argv)
{
  sg4::Engine engine(&argc, argv);
  if (argc != 11) {
    std::fprintf(stderr, "usage: gba-model N WARMUP ITERS LINK_LAT_NS LINK_BW_BPS PCIE_NS SWITCH_NS "
                         "ARRIVAL_NS RELEASE_NS PORTS\n");
    return 2;
  }
  params = Params{parse(argv[1], "N"),
                  parse(argv[2], "WARMUP"),
                  parse(argv[3], "ITERS"),
                  parse_f(argv[4], "LINK_LAT_NS") * 1e-9,
                  parse_f(argv[5], "LINK_BW_BPS"),
                  parse_f(argv[6], "PCIE_NS") * 1e-9,
                  parse_f(argv[7], "SWITCH_NS") * 1e-9,
                  parse_f(argv[8], "ARRIVAL_NS") * 1e-9,
                  parse_f(argv[9], "RELEASE_NS") * 1e-9,
                  parse(argv[10], "PORTS")};
  if (params.n < 1 || params.iters < 1 || params.ports < 2 || params.link_bw <= 0) {
    std::fprintf(stderr, "gba-model: need N >= 1, ITERS >= 1, PORTS >= 2, LINK_BW_BPS > 0\n");
    return 2;
  }

  /* Dijkstra routing: routes are computed (and cached) for the pairs that talk, which are
   * only the tree's edges; a full routing table would be quadratic in the node count. */
  auto* zone = sg4::create_dijkstra_zone("gba", true);
  std::vector<std::string> level;
  for (long i = 0; i < params.n; i++)
    level.push_back("h" + std::to_string(i));
  for (const auto& name : level)
    zone->create_host(name, 1e9);
  struct Switch {
    std::string name;
    std::string parent;
    std::vector<std::string> children;
  };
  std::vector<std::pair<std::string, std::string>> host_parent;
  std::vector<Switch> switches;
  std::map<std::string, size_t> switch_index;
  for (int depth = 0; depth == 0 || level.size() > 1; depth++) {
    std::vector<std::string> next;
    for (size_t first = 0; first < level.size(); first += params.ports) {
      Switch sw{"gba" + std::to_string(depth) + "." + std::to_string(next.size()), "",
                {level.begin() + first, level.begin() + std::min<size_t>(level.size(), first + params.ports)}};
      auto* here = zone->create_host(sw.name, 1e9)->get_netpoint();
      for (const auto& child : sw.children) {
        auto* link = zone->create_link("l:" + child, params.link_bw)->set_latency(params.link_lat);
        zone->add_route(sg4::Host::by_name(child)->get_netpoint(), here, nullptr, nullptr,
                        {sg4::LinkInRoute(link)}, true);
        if (auto found = switch_index.find(child); found != switch_index.end())
          switches[found->second].parent = sw.name;
        else
          host_parent.emplace_back(child, sw.name);
      }
      switch_index[sw.name] = switches.size();
      next.push_back(sw.name);
      switches.push_back(std::move(sw));
    }
    level = next;
  }
  zone->seal();

  /* Eager delivery: a message travels as soon as it is sent, whether or not its receiver is
   * already waiting, as a store or a DMA write does. */
  for (const auto& sw : switches) {
    auto actor = sg4::Actor::create(sw.name, sg4::Host::by_name(sw.name), gba, sw.name, sw.parent, sw.children);
    inbox(sw.name)->set_receiver(actor);
    if (!sw.parent.empty())
      releases(sw.name)->set_receiver(actor);
  }
  for (const auto& [name, parent] : host_parent) {
    auto actor = sg4::Actor::create(name, sg4::Host::by_name(name), host, name, parent);
    releases(name)->set_receiver(actor);
  }
  engine.run();
  return 0;
}
