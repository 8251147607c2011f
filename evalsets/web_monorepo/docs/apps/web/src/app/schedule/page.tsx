import type { SessionSummary } from '@ferngrove/shared';
import { formatClassTime, startOfStudioWeek } from '@ferngrove/shared';
import { Button } from '@ferngrove/ui';

import { BookingCard } from '@/components/BookingCard';
import { apiGet } from '@/lib/api';

export const metadata = { title: 'Schedule' };

// ISR: the timetable is rebuilt at most once a minute. Was 5 minutes until 1.8.0 (FG-412).
// Spots left is re-fetched client-side by BookingCard when a member opens a class anyway.
export const revalidate = 60;

type Props = {
  searchParams: { week?: string; location?: string; session?: string };
};

export default async function SchedulePage({ searchParams }: Props) {
  const weekStart = startOfStudioWeek(searchParams.week ? new Date(searchParams.week) : new Date());
  const query = new URLSearchParams({ from: weekStart.toISOString(), days: '7' });
  if (searchParams.location) query.set('locationId', searchParams.location);

  const sessions = await apiGet<SessionSummary[]>(`/v1/sessions?${query.toString()}`, {
    next: { revalidate },
  });

  const byDay = groupByDay(sessions);

  return (
    <section aria-labelledby="schedule-heading">
      <h1 id="schedule-heading">This week</h1>
      {byDay.length === 0 && <p>No classes scheduled this week.</p>}
      {byDay.map(([day, list]) => (
        <div key={day} className="schedule-day">
          <h2>{formatClassTime(list[0].startsAt, 'EEEE d MMMM')}</h2>
          {list.map((s) => (
            <BookingCard key={s.id} session={s} highlighted={s.id === searchParams.session} />
          ))}
        </div>
      ))}
      <Button variant="ghost" href={`/schedule?week=${nextWeek(weekStart)}`}>
        Next week
      </Button>
    </section>
  );
}

function groupByDay(sessions: SessionSummary[]): [string, SessionSummary[]][] {
  const map = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const key = s.startsAt.slice(0, 10);
    map.set(key, [...(map.get(key) ?? []), s]);
  }
  return [...map.entries()];
}

function nextWeek(d: Date): string {
  return new Date(d.getTime() + 7 * 24 * 3600 * 1000).toISOString().slice(0, 10);
}
