//! The terminal screen of `muon sim` (ratatui on crossterm): the current state's parameters,
//! its transitions to choose from (arrows and Enter, or a transition's number), the history
//! with the current position, and a line for messages and for the commands that need words
//! (find, save, open, or any script command after `:`). Every key does what one of the
//! script's commands does, through the same [`execute`].
//!
//! The terminal is put back (raw mode off, the main screen back) however the screen ends:
//! on quitting, on a stop by the run's budget (polled between keys), on an error (by a guard
//! dropped as the error leaves), and on a panic (by the hook [`ratatui::try_init`]
//! installs).

use std::io::IsTerminal;
use std::time::Duration;

use miette::Diagnostic;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};

use super::{execute, Choice, Command, Outcome, SimError, Simulator, Target};

/// The keys, as the bottom line lists them.
const KEYS: &str =
    "↑↓⏎/1-9 take  u undo  ←→ back/fwd  d deadlock  f find  s save  o open  : command  ? help  q quit";

/// The help: the keys, then the commands of the command line.
const HELP: &str = "  ↑ ↓ (k j)     select a transition
  ⏎             take the selected transition
  1-9 …         take transition N (type its digits)
  u, Backspace  undo the last step
  ← → (< >)     back / forward through the history
  Home, End     the initial state / the end of the history
  d             find a deadlock (a shortest path, walked to)
  f, /          find an action (a name or a multi-action)
  s             save the trace (muon's format, plain: mCRL2's)
  o             open a trace (muon's, check's evidence, mCRL2's plain)
  t             show the history as a trace
  :             type a command: take N|ACTION, undo, back, forward,
                goto N, find deadlock|ACTION, save FILE [muon|plain|json],
                load FILE, trace, quit (as `--script` reads them)
  q, Esc        quit";

/// What the line at the bottom is doing.
enum Prompt {
    /// Showing keys and messages.
    None,
    /// Reading words for a command: its prompt, the command's first word, what is typed.
    Words(&'static str, &'static str, String),
}

/// The screen's state around the simulator.
struct App<'a, 's> {
    sim: &'a mut Simulator<'s>,
    name: &'a str,
    /// The transition selected (an index into the current state's transitions).
    selected: usize,
    /// Digits typed so far of a transition's number.
    digits: String,
    prompt: Prompt,
    /// The last message, and whether it is an error.
    message: (String, bool),
    /// Text shown over the screen until a key is pressed (help, the trace): its title, the
    /// text and the line it is scrolled to.
    overlay: Option<(String, String, u16)>,
    quit: bool,
}

/// Puts the terminal back when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Runs the screen on `sim` (the model's file `name`) until the user quits.
pub fn run(sim: &mut Simulator<'_>, name: &str) -> miette::Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        miette::bail!(
            help = "run `muon sim` in a terminal, or give commands on standard input with `--script` (e.g. `echo 'find deadlock' | muon sim --script SPEC`)",
            "muon sim needs a terminal: standard input or output is not one"
        );
    }
    let _restore = Restore;
    let mut terminal =
        ratatui::try_init().map_err(|e| miette::miette!("cannot set up the terminal: {e}"))?;
    let mut app = App {
        sim,
        name,
        selected: 0,
        digits: String::new(),
        prompt: Prompt::None,
        message: (
            format!("simulating {name}: choose a transition; ? lists the keys"),
            false,
        ),
        overlay: None,
        quit: false,
    };
    app.run(&mut terminal)
        .map_err(|e| miette::miette!("the terminal failed: {e}"))
}

impl App<'_, '_> {
    /// Draws and handles keys until the user quits or the run's budget asks to stop
    /// (`--timeout`, `--memory-limit`, SIGTERM: the stop is acknowledged, so the screen
    /// ends here and the terminal is put back before the run reports it).
    fn run(&mut self, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
        let mut redraw = true;
        while !self.quit {
            if redraw {
                terminal.draw(|f| self.draw(f))?;
                redraw = false;
            }
            if crate::budget::poll_stop().is_some() {
                break;
            }
            if !event::poll(Duration::from_millis(200))? {
                continue;
            }
            match event::read()? {
                Event::Key(k) if k.kind == KeyEventKind::Press => {
                    self.key(k, terminal)?;
                    redraw = true;
                }
                Event::Resize(..) => redraw = true,
                _ => {}
            }
        }
        Ok(())
    }

    /// Handles one key.
    fn key(&mut self, k: KeyEvent, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.quit = true;
            return Ok(());
        }
        if let Some((_, text, top)) = &mut self.overlay {
            // Arrows and pages scroll; any other key closes.
            let last = line_count(text).saturating_sub(1);
            match k.code {
                KeyCode::Up | KeyCode::Char('k') => *top = top.saturating_sub(1),
                KeyCode::Down | KeyCode::Char('j') => *top = top.saturating_add(1).min(last),
                KeyCode::PageUp => *top = top.saturating_sub(10),
                KeyCode::PageDown => *top = top.saturating_add(10).min(last),
                _ => self.overlay = None,
            }
            return Ok(());
        }
        if let Prompt::Words(_, word, input) = &mut self.prompt {
            match k.code {
                KeyCode::Esc => self.prompt = Prompt::None,
                KeyCode::Backspace => {
                    input.pop();
                }
                KeyCode::Char(c) => input.push(c),
                KeyCode::Enter => {
                    let line = match *word {
                        "" => input.clone(),
                        w => format!("{w} {input}"),
                    };
                    self.prompt = Prompt::None;
                    match Command::parse(&line) {
                        Ok(Some(cmd)) => self.run_command(&cmd, terminal)?,
                        Ok(None) => {}
                        Err(e) => self.message = (e, true),
                    }
                }
                _ => {}
            }
            return Ok(());
        }
        let count = self.sim.transitions().len();
        if let KeyCode::Char(c @ '0'..='9') = k.code {
            self.digits.push(c);
            let n: usize = self.digits.parse().unwrap_or(0);
            if n == 0 || n > count {
                self.message = (
                    format!("no transition {}: there are {count}", self.digits),
                    true,
                );
                self.digits.clear();
            } else if n * 10 > count {
                // No longer number starts with these digits: take it.
                self.digits.clear();
                self.run_command(&Command::Take(Choice::Number(n)), terminal)?;
            } else {
                self.selected = n - 1;
                self.message = (
                    format!("transition {n}…: type another digit, or ⏎ to take it"),
                    false,
                );
            }
            return Ok(());
        }
        self.digits.clear();
        let words = |p: &'static str, w: &'static str| Prompt::Words(p, w, String::new());
        match k.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(count.saturating_sub(1))
            }
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown => self.selected = (self.selected + 10).min(count.saturating_sub(1)),
            KeyCode::Enter if count > 0 => {
                let n = self.selected.min(count - 1) + 1;
                self.run_command(&Command::Take(Choice::Number(n)), terminal)?
            }
            KeyCode::Enter => {
                self.message = (
                    "no transition to take: the state is a deadlock".into(),
                    true,
                )
            }
            KeyCode::Char('u') | KeyCode::Backspace => {
                self.run_command(&Command::Undo, terminal)?
            }
            KeyCode::Left | KeyCode::Char('<') => self.run_command(&Command::Back, terminal)?,
            KeyCode::Right | KeyCode::Char('>') => self.run_command(&Command::Forward, terminal)?,
            KeyCode::Home => self.run_command(&Command::Goto(0), terminal)?,
            KeyCode::End => {
                let end = self.sim.len();
                self.run_command(&Command::Goto(end), terminal)?
            }
            KeyCode::Char('d') => self.run_command(&Command::Find(Target::Deadlock), terminal)?,
            KeyCode::Char('f') | KeyCode::Char('/') => {
                self.prompt = words("find action (a name or a multi-action): ", "find")
            }
            KeyCode::Char('s') => {
                self.prompt = words("save the trace to (FILE [muon|plain|json]): ", "save")
            }
            KeyCode::Char('o') | KeyCode::Char('l') => {
                self.prompt = words("open the trace file: ", "load")
            }
            KeyCode::Char(':') => self.prompt = words(":", ""),
            KeyCode::Char('t') => self.run_command(&Command::Trace, terminal)?,
            KeyCode::Char('?') | KeyCode::Char('h') => self.show_help(),
            _ => {}
        }
        Ok(())
    }

    /// Carries out `cmd` and shows what it did.
    fn run_command(
        &mut self,
        cmd: &Command,
        terminal: &mut DefaultTerminal,
    ) -> std::io::Result<()> {
        if let Command::Find(t) = cmd {
            // Searching can take a while: say so first; Esc stops it.
            self.message = (
                format!("searching for {} … (Esc stops)", t.describe()),
                false,
            );
            terminal.draw(|f| self.draw(f))?;
        }
        let mut tick = |_states: usize| !esc_pressed();
        match execute(self.sim, cmd, self.name, &mut tick) {
            Ok(Outcome::Done(msg)) => self.message = (msg, false),
            Ok(Outcome::Show(_)) if matches!(cmd, Command::Help) => self.show_help(),
            Ok(Outcome::Show(text)) => {
                self.overlay = Some(("the history as a trace".into(), text, 0))
            }
            Ok(Outcome::Quit) => self.quit = true,
            Err(e) => self.message = (error_text(&e), true),
        }
        self.reselect();
        Ok(())
    }

    /// Selects the transition the history takes next from here (the first one when it
    /// takes none).
    fn reselect(&mut self) {
        let next = self.sim.step(self.sim.position() + 1);
        self.selected = next
            .and_then(|n| self.sim.transitions().iter().position(|t| t == n))
            .unwrap_or(0);
    }

    fn show_help(&mut self) {
        self.overlay = Some(("keys".into(), HELP.into(), 0));
    }

    fn draw(&self, f: &mut Frame<'_>) {
        let [title, main, message, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(6),
            Constraint::Length(3),
            Constraint::Length(1),
        ])
        .areas(f.area());
        self.draw_title(f, title);
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)])
                .areas(main);
        let params = self.sim.params().len().max(1) as u16;
        let [state, transitions] =
            Layout::vertical([Constraint::Max(params + 2), Constraint::Min(3)]).areas(left);
        self.draw_state(f, state);
        self.draw_transitions(f, transitions);
        self.draw_history(f, right);
        self.draw_message(f, message, keys);
        if let Some((title, text, top)) = &self.overlay {
            let lines = line_count(text).saturating_add(2);
            let area = f
                .area()
                .centered(Constraint::Percentage(90), Constraint::Length(lines));
            f.render_widget(Clear, area);
            let more = if lines > area.height {
                "↑↓ scroll, "
            } else {
                ""
            };
            let block = Block::bordered().title(format!(" {title} ({more}any other key closes) "));
            f.render_widget(
                Paragraph::new(text.as_str()).block(block).scroll((*top, 0)),
                area,
            );
        }
    }

    fn draw_title(&self, f: &mut Frame<'_>, area: Rect) {
        let (pos, len) = (self.sim.position(), self.sim.len());
        let at = match pos {
            0 => format!("initial state, 0 of {len} steps"),
            _ => format!(
                "after step {pos} of {len}: {}",
                self.sim.transitions_into_label()
            ),
        };
        let line = Line::from(vec![
            Span::styled(" muon sim ", Style::new().add_modifier(Modifier::REVERSED)),
            Span::raw(format!(" {}  │  {at}", self.name)),
        ]);
        f.render_widget(Paragraph::new(line), area);
    }

    fn draw_state(&self, f: &mut Frame<'_>, area: Rect) {
        let params = self.sim.params();
        let width = params.iter().map(|p| p.chars().count()).max().unwrap_or(0);
        let changed: Vec<usize> = self
            .sim
            .step(self.sim.position())
            .map(|t| t.changes.iter().map(|c| c.0).collect())
            .unwrap_or_default();
        let lines: Vec<Line<'_>> = if params.is_empty() {
            vec![Line::from("(no parameters)")]
        } else {
            params
                .iter()
                .zip(self.sim.state())
                .enumerate()
                .map(|(i, (p, v))| {
                    let text = format!("{p:<width$} = {v}");
                    if changed.contains(&i) {
                        Line::from(text).bold()
                    } else {
                        Line::from(text)
                    }
                })
                .collect()
        };
        let block = Block::bordered().title(" State (bold: changed by the last step) ");
        f.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn draw_transitions(&self, f: &mut Frame<'_>, area: Rect) {
        let ts = self.sim.transitions();
        let title = match ts.len() {
            0 => " Transitions: none, a deadlock ".to_string(),
            n => format!(" Transitions ({n}) "),
        };
        let (num, width) = super::column_widths(ts);
        let items: Vec<ListItem<'_>> = ts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                ListItem::new(format!(
                    "{:>num$}  {:<width$}  {}",
                    i + 1,
                    t.label,
                    t.describe(self.sim.params())
                ))
            })
            .collect();
        let list = List::new(items)
            .block(Block::bordered().title(title))
            .highlight_symbol("▶ ")
            .highlight_style(Style::new().add_modifier(Modifier::REVERSED));
        let mut state =
            ListState::default().with_selected((!ts.is_empty()).then_some(self.selected));
        f.render_stateful_widget(list, area, &mut state);
    }

    fn draw_history(&self, f: &mut Frame<'_>, area: Rect) {
        let pos = self.sim.position();
        let items: Vec<ListItem<'_>> = (0..=self.sim.len())
            .map(|i| {
                let line = match self.sim.step(i) {
                    None => Line::from(format!("{i:>3}  initial state")),
                    Some(t) => Line::from(vec![
                        Span::raw(format!("{i:>3}  {}  ", t.label)),
                        Span::raw(t.describe(self.sim.params())).dim(),
                    ]),
                };
                let item = ListItem::new(line);
                if i > pos {
                    item.dim()
                } else {
                    item
                }
            })
            .collect();
        let list = List::new(items)
            .block(Block::bordered().title(format!(" History ({} steps) ", self.sim.len())))
            .highlight_symbol("● ")
            .highlight_style(Style::new().add_modifier(Modifier::BOLD));
        let mut state = ListState::default().with_selected(Some(pos));
        f.render_stateful_widget(list, area, &mut state);
    }

    fn draw_message(&self, f: &mut Frame<'_>, message: Rect, keys: Rect) {
        let text = match &self.prompt {
            Prompt::Words(p, _, input) => Line::from(format!("{p}{input}▏")).bold(),
            Prompt::None if self.message.1 => Line::from(self.message.0.as_str()).red(),
            Prompt::None => Line::from(self.message.0.as_str()),
        };
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), message);
        let help = match &self.prompt {
            Prompt::Words(..) => "⏎ run  Esc cancel",
            Prompt::None => KEYS,
        };
        f.render_widget(Paragraph::new(help).dim(), keys);
    }
}

/// The number of lines of an overlay's `text`, as the screen's coordinates count (at most
/// `u16::MAX`: a trace of a longer history shows its first lines).
fn line_count(text: &str) -> u16 {
    u16::try_from(text.lines().count()).unwrap_or(u16::MAX)
}

/// Whether Esc was pressed (without waiting).
fn esc_pressed() -> bool {
    while event::poll(Duration::ZERO).unwrap_or(false) {
        if let Ok(Event::Key(k)) = event::read() {
            if k.code == KeyCode::Esc {
                return true;
            }
        }
    }
    false
}

/// An error on one line: the message, then its help.
fn error_text(e: &SimError) -> String {
    match e.help() {
        Some(h) => format!("{e} ({h})"),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::line_count;

    #[test]
    fn an_overlay_of_more_lines_than_the_screen_counts_stops_at_the_most() {
        assert_eq!(line_count("a\nb\n"), 2);
        // A trace of a history of 70,000 steps (a search may walk that far).
        let long = "step\n".repeat(70_000);
        assert_eq!(line_count(&long), u16::MAX);
        assert_eq!(line_count(&long).saturating_add(2), u16::MAX);
    }
}
