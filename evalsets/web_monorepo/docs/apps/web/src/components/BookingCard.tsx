'use client';

import type { SessionSummary } from '@ferngrove/shared';
import { CANCELLATION_CUTOFF_HOURS, formatClassTime, hoursUntil } from '@ferngrove/shared';
import { Button } from '@ferngrove/ui';
import clsx from 'clsx';
import useSWR from 'swr';

import { apiGet, apiPost } from '@/lib/api';

type Props = {
  session: SessionSummary;
  highlighted?: boolean;
};

export function BookingCard({ session, highlighted = false }: Props) {
  // fresh spots-left count; the page itself may be up to a minute old
  const { data, mutate } = useSWR(`/v1/sessions/${session.id}`, (url: string) =>
    apiGet<SessionSummary>(url),
  );
  const s = data ?? session;
  const full = s.spotsLeft <= 0;
  const hours = hoursUntil(s.startsAt);

  async function book() {
    await apiPost('/v1/bookings', { sessionId: s.id });
    await mutate();
  }

  async function joinWaitlist() {
    await apiPost(`/v1/sessions/${s.id}/waitlist`, {});
    await mutate();
  }

  return (
    <article className={clsx('booking-card', { 'booking-card--highlight': highlighted })}>
      <header>
        <h3>{s.classTypeName}</h3>
        <time dateTime={s.startsAt}>{formatClassTime(s.startsAt, 'HH:mm')}</time>
        <span className="booking-card__meta">
          {s.durationMinutes} min with {s.instructorName}
        </span>
      </header>
      <p className="booking-card__spots">{full ? 'Full' : `${s.spotsLeft} spots left`}</p>
      {s.myBookingStatus === 'CONFIRMED' ? (
        <p className="booking-card__note">
          {hours > CANCELLATION_CUTOFF_HOURS
            ? `Booked. Free cancellation until ${CANCELLATION_CUTOFF_HOURS}h before class.`
            : 'Booked. Cancelling now will use up your credit.'}
        </p>
      ) : full ? (
        <Button variant="secondary" onClick={joinWaitlist} disabled={s.onWaitlist}>
          {s.onWaitlist ? 'On the waitlist' : 'Join waitlist'}
        </Button>
      ) : (
        <Button onClick={book}>Book</Button>
      )}
    </article>
  );
}
