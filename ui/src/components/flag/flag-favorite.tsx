// The flag page's star. The flag's own answer does not say whether it is a favourite; the search does, so the page
// asks it for this flag (under ['flags'], which every star refreshes).
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api';
import { useSession } from '../../session';
import { FlagFavoriteStar } from '../favorite-star';

export function FlagFavorite({ project, name }: { project: string; name: string }) {
  const session = useSession();
  const favorite = useQuery({
    queryKey: ['flags', 'favorite', project, name],
    queryFn: async () => {
      const found = await ok(api.GET('/api/admin/search/features', { params: { query: { query: name, project: `IS:${project}`, limit: '1000' } } }));
      return found.features.some((f) => f.name === name && f.favorite);
    },
    enabled: session.user !== undefined,
  });
  if (favorite.data === undefined) return null;
  return <FlagFavoriteStar project={project} name={name} favorite={favorite.data} />;
}
