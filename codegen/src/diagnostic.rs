//! Problems found in a spec, and their rustc-style rendering.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

use crate::location::Loc;

/// One problem in a spec: what is wrong, where, and (for conflicts) the other place involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Whether the spec is refused ([`Severity::Error`]) or only warned about.
    pub severity: Severity,
    /// What is wrong, in one sentence (the headline of the rendered report).
    pub message: String,
    /// The place the problem is at, with a label saying what is wrong there.
    pub primary: Label,
    /// Other places involved (the earlier definition of a name, the register it overlaps).
    pub secondary: Vec<Label>,
    /// Advice shown under the snippet: what to do about it, or why it is a problem.
    pub notes: Vec<String>,
}

/// Whether a diagnostic stops the spec from being used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth saying, but the spec is valid and generates.
    Warning,
    /// The spec is refused.
    Error,
}

/// A place in the source with a short explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The span in the spec's text.
    pub loc: Loc,
    /// The short explanation printed under the span.
    pub text: String,
}

impl Diagnostic {
    /// A problem that refuses the spec: `message` is the headline, `label` what is wrong at `loc`.
    pub fn error(message: impl Into<String>, loc: Loc, label: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                loc,
                text: label.into(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Something valid that the author probably did not mean; reported, never refused.
    pub fn warning(message: impl Into<String>, loc: Loc, label: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, loc, label)
        }
    }

    /// Adds the other place of a conflict (the earlier definition, the overlapping register).
    pub fn also(mut self, loc: Loc, label: impl Into<String>) -> Self {
        self.secondary.push(Label {
            loc,
            text: label.into(),
        });
        self
    }

    /// Adds a line of advice under the snippet.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// `file:line:column` of the primary location.
    pub fn position(&self, path: &str) -> String {
        format!(
            "{path}:{}:{}",
            self.primary.loc.line, self.primary.loc.column
        )
    }
}

/// How diagnostics are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// No colour: for snapshots, logs and pipes.
    Plain,
    /// ANSI colour: for a terminal.
    Color,
}

/// Renders diagnostics in rustc's format (`error: …`, `--> file:line:col`, a snippet with the
/// offending value underlined and the other place of a conflict marked), followed by a summary
/// line.
pub fn render(diagnostics: &[Diagnostic], path: &str, source: &str, style: Style) -> String {
    let renderer = match style {
        Style::Plain => Renderer::plain(),
        Style::Color => Renderer::styled(),
    };
    let mut out = String::new();
    let lines = LineStarts::new(if diagnostics.is_empty() { "" } else { source });
    for diagnostic in diagnostics {
        let primary = byte_range(diagnostic.primary.loc, source);
        let secondary: Vec<_> = diagnostic
            .secondary
            .iter()
            .map(|label| byte_range(label.loc, source))
            .collect();
        let window = lines.window(std::iter::once(&primary).chain(&secondary), source.len());
        let shift = |range: &std::ops::Range<usize>| {
            range.start - window.bytes.start..range.end - window.bytes.start
        };
        let mut snippet = Snippet::source(&source[window.bytes.clone()])
            .line_start(window.first_line)
            .path(path)
            .fold(true)
            .annotation(
                AnnotationKind::Primary
                    .span(shift(&primary))
                    .label(diagnostic.primary.text.as_str()),
            );
        for (label, range) in diagnostic.secondary.iter().zip(&secondary) {
            snippet = snippet.annotation(
                AnnotationKind::Context
                    .span(shift(range))
                    .label(label.text.as_str()),
            );
        }
        let level = match diagnostic.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut group = level
            .primary_title(diagnostic.message.as_str())
            .element(snippet);
        for note in &diagnostic.notes {
            group = group.element(Level::NOTE.message(note.as_str()));
        }
        out.push_str(&renderer.render(&[group]));
        out.push_str("\n\n");
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if errors > 0 {
        out.push_str(&format!(
            "error: {path}: {errors} problem{} found\n",
            plural(errors)
        ));
    } else if warnings > 0 {
        out.push_str(&format!(
            "warning: {path}: {warnings} warning{}\n",
            plural(warnings)
        ));
    }
    out
}

/// Where each line of a source starts, so that a diagnostic hands the renderer only the lines
/// around its labels: the renderer splits whatever source it is given into lines, and a
/// generated vendor spec is ~100,000 lines (its dozen warnings cost more than the rest of
/// `gba check`'s reporting).
struct LineStarts(Vec<usize>);

/// The lines a snippet is rendered from: their bytes and the 1-based number of the first.
struct Window {
    bytes: std::ops::Range<usize>,
    first_line: usize,
}

impl LineStarts {
    fn new(source: &str) -> Self {
        let newlines = source.bytes().enumerate().filter(|&(_, b)| b == b'\n');
        Self(
            std::iter::once(0)
                .chain(newlines.map(|(i, _)| i + 1))
                .collect(),
        )
    }

    /// The (0-based) line holding byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.0
            .partition_point(|&start| start <= at)
            .saturating_sub(1)
    }

    /// Whole lines covering `ranges`, with two lines more on each side (the renderer shows
    /// only the labelled lines; the margin keeps its view of their neighbours unchanged).
    fn window<'a>(
        &self,
        ranges: impl Iterator<Item = &'a std::ops::Range<usize>>,
        len: usize,
    ) -> Window {
        const MARGIN: usize = 2;
        let (low, high) = ranges.fold((usize::MAX, 0), |(low, high), range| {
            (low.min(range.start), high.max(range.end))
        });
        let first = self.line_of(low.min(len)).saturating_sub(MARGIN);
        let last = self.line_of(high).saturating_add(MARGIN);
        let end = self.0.get(last + 1).copied().unwrap_or(len);
        Window {
            bytes: self.0[first]..end,
            first_line: first + 1,
        }
    }
}

/// The byte range to underline, clamped to the source and to char boundaries so that a
/// location from any origin can never make rendering panic.
fn byte_range(loc: Loc, source: &str) -> std::ops::Range<usize> {
    let mut start = loc.byte_start.min(source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = start.saturating_add(loc.byte_len).min(source.len());
    while !source.is_char_boundary(end) {
        end += 1;
    }
    start..end
}
