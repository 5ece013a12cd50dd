import type { Task } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { ClipboardCheck } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PRODUCT_NAME } from '@/config/constants';
import { useSites } from '@/features/sites/api/get-sites';
import { useTasks } from '@/features/tasks/api/task-queries';
import { DAY_LOOKBACK_MS, taskDayWindow } from '@/features/tasks/api/task-reads';
import { usePendingAnswers } from '@/features/tasks/api/use-pending-answers';
import { ProcessPanel } from '@/features/tasks/components/process-panel';
import { TaskForm } from '@/features/tasks/components/task-form';
import type { PendingAnswer } from '@/features/tasks/offline-answers';
import { remainingText, stageOf, type TaskStage, windowText } from '@/features/tasks/task-format';
import { formatClock, formatDateAt } from '@vigie/contract/clock';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { LOAD_ERROR } from '@/lib/fallback-text';

const GROUPS: { stage: TaskStage; title: string; empty?: string }[] = [
  { stage: 'grace', title: 'En retard' },
  { stage: 'open', title: 'À faire maintenant', empty: 'Rien à faire pour le moment.' },
  { stage: 'upcoming', title: 'Plus tard aujourd’hui' },
  { stage: 'done', title: 'Faites' },
  { stage: 'missed', title: 'Manquées' },
];

function TaskCard({
  task,
  now,
  siteName,
  timeZone,
  canDo,
  kept,
}: {
  task: Task;
  now: number;
  siteName: string | null;
  timeZone?: string;
  canDo: boolean;
  /** Answers to it waiting on this phone for the network. */
  kept?: PendingAnswer;
}) {
  const [open, setOpen] = useState(false);
  const stage = stageOf(task, now);
  const waiting = kept?.state === 'waiting' && task.status !== 'done' && task.status !== 'late';
  const answerable = canDo && !waiting && (stage === 'open' || stage === 'grace');
  const headingId = `tache-${task.id}`;
  return (
    <li className="space-y-3 rounded-2xl border border-white/10 bg-slate-900/60 p-4" data-testid="task" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold text-white">
            {task.name}
          </h3>
          <p className="text-sm text-slate-300">
            {windowText(task, timeZone)}
            {siteName ? ` · ${siteName}` : ''}
            {stage === 'grace' ? ` · encore ${remainingText(Date.parse(task.graceEndsAt), now)} de délai` : ''}
          </p>
        </div>
        {stage === 'done' && (
          <p className={`text-sm font-semibold ${task.result === 'nonconforming' ? 'text-amber-200' : 'text-emerald-200'}`}>
            {task.status === 'late' ? 'Faite en retard' : 'Faite'}
            {task.result === 'nonconforming' ? ', non conforme' : ''}
            {task.completedByName ? ` par ${task.completedByName}` : ''}
          </p>
        )}
        {waiting && (
          <p className="text-sm font-semibold text-cyan-100">
            En attente de réseau (réponses données à {formatClock(kept.request.completedAt, timeZone)})
          </p>
        )}
        {stage === 'missed' && !waiting && <p className="text-sm font-semibold text-red-200">Manquée</p>}
        {task.alertId && (stage === 'done' || stage === 'missed') && (
          <Link
            to={`/dashboard/alertes/${task.alertId}`}
            className="w-full text-sm font-semibold text-cyan-200 underline underline-offset-4"
          >
            Noter l’action corrective
          </Link>
        )}
        {answerable && !open && (
          <Button variant="primary" onClick={() => setOpen(true)} aria-describedby={headingId}>
            Remplir
          </Button>
        )}
      </div>
      {answerable && open && <TaskForm task={task} timeZone={timeZone} />}
    </li>
  );
}

/**
 * Answers given without network that the server refused once it was back (the task was completed
 * meanwhile by someone else, or its time had passed): shown with the reason and the answers as
 * given, until the person says they have read them. Nothing leaves the phone unseen.
 */
function RefusedAnswers({ entries, onDismiss }: { entries: PendingAnswer[]; onDismiss: (taskId: string) => void }) {
  return (
    <section aria-labelledby="reponses-refusees" className="space-y-3 rounded-2xl border border-red-300/40 bg-red-500/10 p-4" role="alert">
      <h2 id="reponses-refusees" className="text-lg font-semibold text-white">
        Réponses non enregistrées
      </h2>
      <ul className="space-y-4">
        {entries.map((entry) => (
          <li key={entry.taskId} className="space-y-2" data-testid="refused-answers">
            <p className="font-semibold text-white">
              {entry.taskName} · réponses données le {formatDateAt(entry.request.completedAt, undefined, 'short')}
            </p>
            <p className="text-red-100">{entry.message}</p>
            <ul className="list-disc pl-5 text-sm text-slate-200">
              {entry.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <Button variant="secondary" onClick={() => onDismiss(entry.taskId)}>
              J’ai noté ces réponses
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /dashboard/taches: « Tâches du jour » for shop staff — what is due now, late, later, done and
 * missed today in the shops one sees, answered with one tap per item on a phone; and the coolings
 * and hot holdings under way, with their countdown.
 */
export default function TasksRoute() {
  const now = useNow(30_000);
  const can = useCan();
  // Today and the hours around it: a round due at 23 h is still answered after midnight.
  // Read again when the day changes, not every tick.
  const day = new Date(now).toDateString();
  const { from, to } = useMemo(() => taskDayWindow(new Date(day).getTime()), [day]);
  const tasks = useTasks({ from, to });
  const pending = usePendingAnswers();
  const keptFor = (taskId: string) => pending.entries.find((entry) => entry.taskId === taskId);
  const waitingCount = pending.entries.filter((entry) => entry.state === 'waiting').length;
  const refused = pending.entries.filter((entry) => entry.state === 'conflict');
  const sites = useSites();
  const siteOf = (id: string) => sites.data?.find((site) => site.id === id);
  const canDo = can(endpoints.tasks.complete);
  const today = (tasks.data ?? []).filter((task) => {
    const stage = stageOf(task, now);
    // Yesterday's done and missed ones are history; what is still open is not.
    return Date.parse(task.dueAt) >= Date.parse(from) + DAY_LOOKBACK_MS || stage === 'open' || stage === 'grace';
  });

  return (
    <>
      <title>{`Tâches du jour · ${PRODUCT_NAME}`}</title>
      <div className="mb-6 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <ClipboardCheck className="size-7 text-cyan-300" aria-hidden="true" />
          Tâches du jour
        </h1>
        <p className="mt-3 text-slate-300">
          Les contrôles du plan de maîtrise sanitaire à faire aujourd’hui{'\u202F'}: une réponse par point, une photo si elle est demandée.
          Une réponse hors limites ouvre une alerte pour noter l’action corrective.
        </p>
      </div>
      <div className="space-y-8">
        {waitingCount > 0 && (
          <p className="rounded-xl border border-cyan-300/40 bg-cyan-400/10 p-4 text-cyan-50" role="status">
            {waitingCount === 1
              ? '1 tâche remplie sans réseau attend d’être envoyée.'
              : `${waitingCount} tâches remplies sans réseau attendent d’être envoyées.`}{' '}
            Gardez l’application ouverte{'\u202F'}: elles partent dès le retour du réseau.
          </p>
        )}
        {refused.length > 0 && <RefusedAnswers entries={refused} onDismiss={pending.dismiss} />}
        {tasks.isError && <Alert>{errorMessage(tasks.error, LOAD_ERROR)}</Alert>}
        {tasks.isPending && <p className="text-slate-300">Chargement…</p>}
        {tasks.data &&
          GROUPS.map(({ stage, title, empty }) => {
            const group = today.filter((task) => stageOf(task, now) === stage);
            if (group.length === 0 && !empty) return null;
            return (
              <section key={stage} aria-label={title} className="space-y-3">
                <h2 className="text-lg font-semibold text-white">
                  {title} <span className="font-normal text-slate-400">({group.length})</span>
                </h2>
                {group.length === 0 ? (
                  <p className="text-slate-300">{empty}</p>
                ) : (
                  <ul className="space-y-3">
                    {group.map((task) => (
                      <TaskCard
                        key={task.id}
                        task={task}
                        now={now}
                        siteName={(sites.data?.length ?? 0) > 1 ? (siteOf(task.siteId)?.name ?? null) : null}
                        timeZone={siteOf(task.siteId)?.timezone}
                        canDo={canDo}
                        kept={keptFor(task.id)}
                      />
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        {can(endpoints.processes.create) && <ProcessPanel sites={sites.data ?? []} />}
      </div>
    </>
  );
}
