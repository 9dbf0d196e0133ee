//! The session's task list, as Claude Code keeps it: `TaskCreate` / `TaskUpdate` calls in the
//! transcript (Claude Code 2.1.197: TaskCreate takes a `subject`, its result says "Task #N
//! created" and carries `{"task": {"id": "N"}}`; TaskUpdate names the task by `taskId` and sets
//! `status` to `pending`, `in_progress`, `completed` or `deleted`), older versions' `TodoWrite`
//! (the whole list each call: `todos: [{content, status, activeForm}]`), and — the truth when
//! present — `~/.claude/tasks/<session_id>/<N>.json` (`id, subject, description, status,
//! blocks, blockedBy`).

use crate::core::error::Result;
use crate::core::fsx::{self, Limit};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The most tasks a digest keeps (completed ones go first when there are more).
const MAX_TASKS: usize = 50;
/// The most task files read from Claude Code's task folder.
const MAX_TASK_FILES: usize = 200;
/// The most bytes read of one task file.
const TASK_FILE: Limit = Limit {
    what: "a Claude Code task file",
    max: 64 * 1024,
};

/// One task.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Task {
    /// Claude Code's id (`1`, `2`, …); `None` until TaskCreate's result names it, and for a
    /// TodoWrite item.
    pub(crate) id: Option<String>,
    pub(crate) subject: String,
    /// `pending`, `in_progress` or `completed`.
    pub(crate) status: String,
    /// The TaskCreate call, while its result (which names the id) has not been read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) created_by: Option<String>,
    /// A TodoWrite item (replaced as a whole by the next TodoWrite).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) todo: bool,
}

/// A status as Claude Code spells it; `None` for anything else.
pub(crate) fn status(s: &str) -> Option<&'static str> {
    match s.trim() {
        "pending" => Some("pending"),
        "in_progress" => Some("in_progress"),
        "completed" => Some("completed"),
        "deleted" => Some("deleted"),
        _ => None,
    }
}

/// A TaskCreate call: the task, pending, until its result names its id.
pub(crate) fn create(tasks: &mut Vec<Task>, subject: &str, call: &str) {
    tasks.push(Task {
        id: None,
        subject: subject.to_string(),
        status: "pending".into(),
        created_by: (!call.is_empty()).then(|| call.to_string()),
        todo: false,
    });
    bound(tasks);
}

/// TaskCreate's result: the task made by `call` is task `id`.
pub(crate) fn created(tasks: &mut Vec<Task>, call: &str, id: &str) {
    let Some(at) = tasks
        .iter()
        .position(|t| t.created_by.as_deref() == Some(call))
    else {
        return;
    };
    // An update read before the result may have made a stand-in under this id.
    if let Some(dup) = tasks
        .iter()
        .position(|t| t.id.as_deref() == Some(id) && t.created_by.is_none())
    {
        let stand_in = tasks.remove(dup);
        let at = if dup < at { at - 1 } else { at };
        tasks[at].status = stand_in.status;
        return created(tasks, call, id);
    }
    tasks[at].id = Some(id.to_string());
    tasks[at].created_by = None;
}

/// A TaskUpdate call: the task's new status and subject; `deleted` removes it.
pub(crate) fn update(
    tasks: &mut Vec<Task>,
    id: &str,
    new_status: Option<&str>,
    subject: Option<&str>,
) {
    let at = tasks.iter().position(|t| t.id.as_deref() == Some(id));
    match (at, new_status) {
        (Some(at), Some("deleted")) => {
            tasks.remove(at);
        }
        (Some(at), _) => {
            if let Some(s) = new_status {
                tasks[at].status = s.to_string();
            }
            if let Some(s) = subject {
                tasks[at].subject = s.to_string();
            }
        }
        (None, Some("deleted")) => {}
        (None, _) => {
            tasks.push(Task {
                id: Some(id.to_string()),
                subject: subject.map_or_else(|| format!("task #{id}"), str::to_string),
                status: new_status.unwrap_or("pending").to_string(),
                created_by: None,
                todo: false,
            });
            bound(tasks);
        }
    }
}

/// A TodoWrite call: its list replaces the previous TodoWrite list.
pub(crate) fn todo_write(tasks: &mut Vec<Task>, todos: impl IntoIterator<Item = (String, String)>) {
    tasks.retain(|t| !t.todo);
    for (content, s) in todos {
        let Some(s) = status(&s).filter(|s| *s != "deleted") else {
            continue;
        };
        if content.trim().is_empty() {
            continue;
        }
        tasks.push(Task {
            id: None,
            subject: content,
            status: s.to_string(),
            created_by: None,
            todo: true,
        });
    }
    bound(tasks);
}

/// Replaces the TaskCreate tasks with Claude Code's own task files (TodoWrite items stay).
pub(crate) fn overlay(tasks: &mut Vec<Task>, files: Vec<Task>) {
    let todos: Vec<Task> = tasks.drain(..).filter(|t| t.todo).collect();
    tasks.extend(files);
    tasks.extend(todos);
    bound(tasks);
}

/// At most `MAX_TASKS`: the oldest completed ones go first, then the oldest.
fn bound(tasks: &mut Vec<Task>) {
    while tasks.len() > MAX_TASKS {
        let at = tasks
            .iter()
            .position(|t| t.status == "completed")
            .unwrap_or(0);
        tasks.remove(at);
    }
}

/// A task file of Claude Code's.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TaskFile {
    id: serde_json::Value,
    subject: String,
    status: String,
}

/// The tasks in Claude Code's folder `dir` (`~/.claude/tasks/<session_id>`), in id order;
/// `None` when the folder does not exist or holds no task. A file that cannot be read (a
/// link, too large, not JSON) is skipped.
pub(crate) fn read_folder(dir: &Path) -> Result<Option<Vec<Task>>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(crate::core::error::Error::io("read", dir, e)),
    };
    let mut found: Vec<(u64, Task)> = Vec::new();
    for entry in entries.flatten().take(MAX_TASK_FILES * 2) {
        let name = entry.file_name();
        let Some(n) = name
            .to_str()
            .and_then(|n| n.strip_suffix(".json"))
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        let Ok(Some(text)) = fsx::read_limited(&entry.path(), TASK_FILE) else {
            continue;
        };
        let Ok(file) = serde_json::from_str::<TaskFile>(&text) else {
            continue;
        };
        let Some(s) = status(&file.status).filter(|s| *s != "deleted") else {
            continue;
        };
        let id = match &file.id {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => n.to_string(),
        };
        found.push((
            n,
            Task {
                id: Some(id),
                subject: file.subject,
                status: s.to_string(),
                created_by: None,
                todo: false,
            },
        ));
        if found.len() >= MAX_TASK_FILES {
            break;
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    found.sort_by_key(|(n, _)| *n);
    Ok(Some(found.into_iter().map(|(_, t)| t).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(tasks: &[Task]) -> Vec<(Option<&str>, &str, &str)> {
        tasks
            .iter()
            .map(|t| (t.id.as_deref(), t.subject.as_str(), t.status.as_str()))
            .collect()
    }

    #[test]
    fn create_three_then_update_by_task_id() {
        let mut t = Vec::new();
        for (i, s) in ["parse", "test", "docs"].iter().enumerate() {
            create(&mut t, s, &format!("toolu_{i}"));
        }
        created(&mut t, "toolu_0", "1");
        created(&mut t, "toolu_1", "2");
        update(&mut t, "1", Some("completed"), None);
        update(&mut t, "2", Some("in_progress"), Some("tests, all of them"));
        assert_eq!(
            view(&t),
            [
                (Some("1"), "parse", "completed"),
                (Some("2"), "tests, all of them", "in_progress"),
                (None, "docs", "pending"),
            ]
        );
        created(&mut t, "toolu_2", "3");
        update(&mut t, "3", Some("deleted"), None);
        assert_eq!(t.len(), 2);
        // An update of a task never seen created stands in for it.
        update(&mut t, "9", Some("in_progress"), None);
        assert_eq!(view(&t)[2], (Some("9"), "task #9", "in_progress"));
    }

    #[test]
    fn an_update_read_before_the_create_result_is_merged() {
        let mut t = Vec::new();
        create(&mut t, "parse", "toolu_0");
        update(&mut t, "1", Some("completed"), None);
        created(&mut t, "toolu_0", "1");
        assert_eq!(view(&t), [(Some("1"), "parse", "completed")]);
    }

    #[test]
    fn todo_write_replaces_its_own_list_only() {
        let mut t = Vec::new();
        create(&mut t, "from TaskCreate", "toolu_0");
        todo_write(
            &mut t,
            [
                ("a".to_string(), "pending".to_string()),
                ("b".into(), "completed".into()),
            ],
        );
        todo_write(
            &mut t,
            [
                ("c".to_string(), "in_progress".to_string()),
                ("junk".into(), "maybe".into()),
            ],
        );
        assert_eq!(
            view(&t),
            [
                (None, "from TaskCreate", "pending"),
                (None, "c", "in_progress")
            ]
        );
    }

    #[test]
    fn the_task_folder_is_read_in_id_order_and_wins() {
        let d = tempfile::tempdir().unwrap();
        let w = |n: &str, text: &str| std::fs::write(d.path().join(n), text).unwrap();
        w(
            "10.json",
            r#"{"id":"10","subject":"ten","status":"pending","blocks":[],"blockedBy":[]}"#,
        );
        w(
            "2.json",
            r#"{"id":"2","subject":"two","status":"completed"}"#,
        );
        w(
            "3.json",
            r#"{"id":"3","subject":"gone","status":"deleted"}"#,
        );
        w("4.json", "not json");
        w(".lock", "");
        std::os::unix::fs::symlink("/etc/passwd", d.path().join("5.json")).unwrap();
        let files = read_folder(d.path()).unwrap().unwrap();
        assert_eq!(
            view(&files),
            [
                (Some("2"), "two", "completed"),
                (Some("10"), "ten", "pending")
            ]
        );
        let mut t = Vec::new();
        create(&mut t, "stale", "toolu_0");
        todo_write(&mut t, [("todo".to_string(), "pending".to_string())]);
        overlay(&mut t, files);
        assert_eq!(view(&t)[0], (Some("2"), "two", "completed"));
        assert_eq!(view(&t)[2], (None, "todo", "pending"));
        assert!(read_folder(&d.path().join("none")).unwrap().is_none());
    }

    #[test]
    fn the_list_is_bounded_completed_first() {
        let mut t = Vec::new();
        for i in 0..MAX_TASKS + 5 {
            create(&mut t, &format!("t{i}"), &format!("c{i}"));
            created(&mut t, &format!("c{i}"), &i.to_string());
            if i == 7 {
                update(&mut t, "7", Some("completed"), None);
            }
        }
        assert_eq!(t.len(), MAX_TASKS);
        assert!(t.iter().all(|x| x.subject != "t7"));
    }
}
