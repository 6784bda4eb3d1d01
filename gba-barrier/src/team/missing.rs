//! The text a team's timeout gives for who is missing: ports with their hosts, and this
//! host's processes that have not arrived.

use gba_hal::{LocalSlot, MemberSet};

/// What the waiting process could read about the pending episode.
pub(super) struct Seen<'a> {
    /// Ports the device names as not arrived (MEMBER_MASK minus ARRIVED_MASK).
    pub ports: &'a MemberSet,
    /// Whether this process can read the group's configuration page at all: the kernel driver
    /// maps only the run-time page and reads the rest for the holder (GBA_IOC_STATE); when
    /// that fails, MEMBER_MASK and ARRIVED_MASK read 0, so an empty `ports` says nothing about
    /// who arrived.
    pub arrivals_readable: bool,
    /// This process's own port.
    pub own: Option<u32>,
    /// Every member port with the hostname it reported.
    pub hosts: &'a [(u32, String)],
    /// This host's processes of the team that have not arrived.
    pub local: &'a [LocalSlot],
}

pub(super) fn describe(seen: &Seen<'_>) -> String {
    let name = |p: u32| {
        let host = seen.hosts.iter().find(|(q, _)| *q == p);
        let this = if seen.own == Some(p) {
            ", this host"
        } else {
            ""
        };
        format!("port {p} ({}{this})", host.map_or("?", |(_, h)| h.as_str()))
    };
    let list =
        |ports: &mut dyn Iterator<Item = u32>| ports.map(name).collect::<Vec<_>>().join(", ");
    let mut text = if !seen.ports.is_empty() {
        format!(
            "hosts never arrived: {}",
            list(&mut seen.ports.iter().map(|p| p as u32))
        )
    } else if seen.arrivals_readable {
        "every host's port arrived".to_string()
    } else {
        // Only what is known: this port has not arrived while one of its processes has not
        // (the last of them rings the doorbell); of the others nothing can be read here.
        let others: Vec<u32> = seen
            .hosts
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| Some(*p) != seen.own)
            .collect();
        let mut parts = Vec::new();
        if let Some(own) = seen.own
            && !seen.local.is_empty()
        {
            parts.push(format!("{} never arrived", name(own)));
        }
        if !others.is_empty() {
            parts.push(format!(
                "whether {} arrived is not known here",
                list(&mut others.into_iter())
            ));
        }
        if parts.is_empty() {
            parts.push("which ports arrived is not known here".to_string());
        }
        format!(
            "{} (this process cannot read the group's ARRIVED_MASK: the kernel driver maps only its run-time page, and its GBA_IOC_STATE failed)",
            parts.join("; ")
        )
    };
    if !seen.local.is_empty() {
        let procs: Vec<String> = seen
            .local
            .iter()
            .map(|s| {
                format!(
                    "pid {} (team rank {}{})",
                    s.pid,
                    s.rank,
                    if s.alive { "" } else { ", dead" }
                )
            })
            .collect();
        text += &format!("; on this host not arrived: {}", procs.join(", "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts() -> Vec<(u32, String)> {
        vec![(0, "a".into()), (1, "b".into())]
    }

    fn straggler() -> LocalSlot {
        LocalSlot {
            slot: 1,
            pid: 42,
            rank: 1,
            entered: 0,
            alive: true,
        }
    }

    #[test]
    fn readable_arrivals_name_the_ports_that_did_not_arrive() {
        let ports: MemberSet = [1].into_iter().collect();
        let text = describe(&Seen {
            ports: &ports,
            arrivals_readable: true,
            own: Some(0),
            hosts: &hosts(),
            local: &[],
        });
        assert_eq!(text, "hosts never arrived: port 1 (b)");
    }

    /// The kernel path when GBA_IOC_STATE fails: MEMBER_MASK and ARRIVED_MASK read 0. The own port is missing while
    /// a local process is; the other ports' arrival is said to be unknown, never "arrived".
    #[test]
    fn unreadable_arrivals_say_what_is_known_and_what_is_not() {
        let none = MemberSet::new();
        let text = describe(&Seen {
            ports: &none,
            arrivals_readable: false,
            own: Some(0),
            hosts: &hosts(),
            local: &[straggler()],
        });
        assert!(!text.contains("every host's port arrived"), "{text}");
        assert!(
            text.starts_with(
                "port 0 (a, this host) never arrived; whether port 1 (b) arrived is not known here (this process cannot read the group's ARRIVED_MASK"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("; on this host not arrived: pid 42 (team rank 1)"),
            "{text}"
        );
        let alone = describe(&Seen {
            ports: &none,
            arrivals_readable: false,
            own: Some(0),
            hosts: &hosts()[..1],
            local: &[],
        });
        assert!(
            alone.starts_with("which ports arrived is not known here"),
            "{alone}"
        );
    }

    #[test]
    fn readable_and_nobody_missing_says_so() {
        let none = MemberSet::new();
        let text = describe(&Seen {
            ports: &none,
            arrivals_readable: true,
            own: Some(0),
            hosts: &hosts(),
            local: &[straggler()],
        });
        assert_eq!(
            text,
            "every host's port arrived; on this host not arrived: pid 42 (team rank 1)"
        );
    }
}
