import { notifications } from '@mantine/notifications';

/** Says that a create, save, toggle or delete worked: briefly, bottom right (where it covers nothing). */
export function confirmDone(message: string) {
  notifications.show({ color: 'green', message, autoClose: 4000 });
}
