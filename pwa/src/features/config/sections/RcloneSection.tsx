import { ComingSoon } from '../../../components/ComingSoon';

/** Mount & RClone: filled in by the work that builds the rclone domain. */
export function RcloneSection() {
  return (
    <div className="card">
      <ComingSoon
        title="Mount & RClone"
        icon="clock"
        description="Mount the library with rclone, with its VFS cache and RC control."
      />
    </div>
  );
}
