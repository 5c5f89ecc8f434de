// The star that adds a flag or a project to the signed-in user's favourites, or takes it out: a toggle button
// (aria-pressed). Favourites belong to users, so without one (AUTH_TYPE=none) no star is offered.
import { ActionIcon } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { useSession } from '../session';
import { confirmDone } from './confirm-done';

/**
 * `change(true)` adds, `change(false)` removes; `refresh` names the answers that show the favourite. While the change
 * is under way the star already shows where it goes, and it settles once those answers are read again.
 */
export function FavoriteStar({ name, favorite, change: call, refresh }: { name: string; favorite: boolean; change: (favorite: boolean) => Promise<unknown>; refresh: string[][] }) {
  const change = useChange(call, ...refresh);
  const shown = change.isPending ? change.variables : favorite;
  const Icon = shown ? IconStarFilled : IconStar;
  return (
    <ActionIcon
      variant="subtle"
      color={shown ? 'yellow.9' : 'gray.7'}
      aria-label={shown ? `Remove ${name} from favourites` : `Add ${name} to favourites`}
      aria-pressed={shown}
      onClick={() =>
        !change.isPending &&
        change.mutate(!shown, { onSuccess: (_, on) => confirmDone(on ? `${name} added to favourites.` : `${name} removed from favourites.`) })
      }
    >
      <Icon size={18} aria-hidden />
    </ActionIcon>
  );
}

/** A flag's star (favoriteFeature / unfavoriteFeature): the flag search (['flags']) and the one-flag read (['flag']) show it. */
export function FlagFavoriteStar({ project, name, favorite }: { project: string; name: string; favorite: boolean }) {
  const session = useSession();
  if (!session.user || !session.can(favorite ? 'unfavoriteFeature' : 'favoriteFeature', { project })) return null;
  const params = { path: { projectId: project, featureName: name } };
  const change = (on: boolean) =>
    on ? ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/favorites', { params })) : ok(api.DELETE('/api/admin/projects/{projectId}/features/{featureName}/favorites', { params }));
  return <FavoriteStar name={name} favorite={favorite} change={change} refresh={[['flags'], ['flag', project, name]]} />;
}

/** A project's star (favoriteProject / unfavoriteProject); the project list shows its favourites. */
export function ProjectFavoriteStar({ project, name, favorite }: { project: string; name: string; favorite: boolean }) {
  const session = useSession();
  if (!session.user || !session.can(favorite ? 'unfavoriteProject' : 'favoriteProject', { project })) return null;
  const params = { path: { projectId: project } };
  const change = (on: boolean) => (on ? ok(api.POST('/api/admin/projects/{projectId}/favorites', { params })) : ok(api.DELETE('/api/admin/projects/{projectId}/favorites', { params })));
  return <FavoriteStar name={name} favorite={favorite} change={change} refresh={[['projects']]} />;
}
